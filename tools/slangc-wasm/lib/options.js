// Command-line parsing for slangc-wasm: the subset of slangc's options that
// dgpb uses, spelled exactly as slangc spells them.  Anything else is refused
// with a message naming the option.  See docs/slangc-wasm.md for the list.

export class UsageError extends Error {}

// Slang's SlangStage enum values, by the names slangc's -stage accepts.
export const STAGES = Object.freeze({
  vertex: 1,
  hull: 2,
  domain: 3,
  geometry: 4,
  fragment: 5,
  pixel: 5,
  compute: 6,
  raygeneration: 7,
  intersection: 8,
  anyhit: 9,
  closesthit: 10,
  miss: 11,
  callable: 12,
  mesh: 13,
  amplification: 14,
});

// Targets this build compiles: the Slang compile target each one asks the
// WebAssembly module for, and whether its output is binary.  ptx is compiled
// from Slang's CUDA output by the CUDA toolkit (lib/ptx.js).
export const TARGETS = Object.freeze({
  spirv: { slang: 'SPIRV', binary: true },
  wgsl: { slang: 'WGSL', binary: false },
  metal: { slang: 'METAL', binary: false },
  hlsl: { slang: 'HLSL', binary: false },
  glsl: { slang: 'GLSL', binary: false },
  cuda: { slang: 'CUDA', binary: false },
  ptx: { slang: 'CUDA', binary: false, viaNvcc: true },
});

// Targets slangc knows but which need a downstream compiler that Slang's
// WebAssembly build cannot load.
export const MISSING_DOWNSTREAM = Object.freeze({
  dxil: 'dxc',
  dxbc: 'fxc',
  metallib: 'metal',
});

// Output file extensions slangc infers a target from when -target is absent.
const EXTENSION_TARGETS = Object.freeze({
  '.spv': 'spirv',
  '.wgsl': 'wgsl',
  '.metal': 'metal',
  '.hlsl': 'hlsl',
  '.glsl': 'glsl',
  '.cu': 'cuda',
  '.ptx': 'ptx',
  '.dxil': 'dxil',
  '.dxbc': 'dxbc',
  '.metallib': 'metallib',
});

// The one target profile the WebAssembly API's sessions have: a session is
// created with its target alone, and Slang writes SPIR-V 1.5 for it. slangc's
// -profile names it `spirv_1_5`; the SPIR-V is checked to be of that version.
export const SESSION_PROFILE = 'spirv_1_5';
export const SESSION_SPIRV_VERSION = 0x00010500;

const REFUSED_MORE = {};
const REFUSED = Object.freeze({
  '-matrix-layout-column-major':
    'the Slang WebAssembly API has no matrix-layout setting; its sessions are row-major ' +
    '(use -matrix-layout-row-major)',
  '-capability':
    'the Slang WebAssembly API has no capability setting; its sessions have their target\'s ' +
    'default capabilities only',
  '-fvk-use-entrypoint-name':
    'the Slang WebAssembly API has no way to set it; a single entry point keeps ' +
    "Slang's default SPIR-V name, several entry points keep their own names",
});

// Options slangc has that set what the WebAssembly API's sessions leave at Slang's
// defaults: the block layout, the optimization level and the debug information.
const BLOCK_LAYOUT =
  "the Slang WebAssembly API has no block-layout setting; its sessions have Slang's own " +
  'rules (std140 uniform blocks, std430 storage buffers and push constants)';
const OPTIMIZATION =
  "the Slang WebAssembly API has no optimization setting; its sessions have Slang's default, -O1";
const DEBUG_INFO =
  'the Slang WebAssembly API has no debug-information setting; its sessions write none';
for (const [options, reason] of [
  [['-fvk-use-scalar-layout', '-force-glsl-scalar-layout', '-fvk-use-gl-layout', '-fvk-use-c-layout',
    '-fvk-use-dx-layout'], BLOCK_LAYOUT],
  [['-O0', '-O2', '-O3'], OPTIMIZATION],
  [['-g', '-g1', '-g2', '-g3'], DEBUG_INFO],
])
  for (const o of options) REFUSED_MORE[o] = reason;
Object.freeze(REFUSED_MORE);

/*
 * Parses argv (without the program name).  Returns a plain options object:
 *   { input, target, entries: [{name, stage, stageName}], output, reflection,
 *     depfile, defines: [[name, value]], includeDirs, skipCodegen, help, version }
 * Throws UsageError for anything slangc-wasm does not accept.
 */
export function parseArgs(argv) {
  if (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string'))
    throw new UsageError('arguments must be strings');

  const opts = {
    input: null,
    target: null,
    entries: [],
    output: null,
    reflection: null,
    depfile: null,
    defines: [],
    includeDirs: [],
    skipCodegen: false,
    profile: null,
    help: false,
    version: false,
  };
  let pendingStage = null;

  const value = (i, opt) => {
    if (i + 1 >= argv.length) throw new UsageError(`option '${opt}' needs a value`);
    return argv[i + 1];
  };
  const setOnce = (key, opt, v) => {
    if (opts[key] !== null) throw new UsageError(`option '${opt}' given more than once`);
    opts[key] = v;
  };
  const parseStage = (name) => {
    if (!Object.hasOwn(STAGES, name)) throw new UsageError(`unknown stage '${name}'`);
    return name;
  };

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '-h':
      case '-help':
      case '--help':
        opts.help = true;
        continue;
      case '-v':
      case '-version':
        opts.version = true;
        continue;
      case '-target':
        setOnce('target', a, value(i++, a));
        continue;
      case '-entry':
        opts.entries.push({ name: value(i++, a), stageName: pendingStage });
        pendingStage = null;
        continue;
      case '-stage': {
        const stage = parseStage(value(i++, a));
        const last = opts.entries[opts.entries.length - 1];
        if (last && last.stageName === null) last.stageName = stage;
        else if (pendingStage === null) pendingStage = stage;
        else throw new UsageError(`option '-stage' given twice for one entry point`);
        continue;
      }
      case '-o':
        setOnce('output', a, value(i++, a));
        continue;
      case '-reflection-json':
        setOnce('reflection', a, value(i++, a));
        continue;
      case '-depfile':
        setOnce('depfile', a, value(i++, a));
        continue;
      case '-D':
        opts.defines.push(parseDefine(value(i++, a)));
        continue;
      case '-I':
        opts.includeDirs.push(value(i++, a));
        continue;
      case '-matrix-layout-row-major':
        continue;
      case '-skip-codegen':
        opts.skipCodegen = true;
        continue;
      case '-profile': {
        const profile = value(i++, a);
        if (profile !== SESSION_PROFILE)
          throw new UsageError(
            `option '-profile ${profile}' is not supported: the Slang WebAssembly API has no ` +
              `target-profile setting; its sessions write SPIR-V 1.5 (-profile ${SESSION_PROFILE} ` +
              'is accepted, for the spirv target)',
          );
        setOnce('profile', a, profile);
        continue;
      }
      default:
        break;
    }
    if (Object.hasOwn(REFUSED, a)) throw new UsageError(`option '${a}' is not supported: ${REFUSED[a]}`);
    if (Object.hasOwn(REFUSED_MORE, a))
      throw new UsageError(`option '${a}' is not supported: ${REFUSED_MORE[a]}`);
    if (a.startsWith('-D') && a.length > 2) {
      opts.defines.push(parseDefine(a.slice(2)));
      continue;
    }
    if (a.startsWith('-I') && a.length > 2) {
      opts.includeDirs.push(a.slice(2));
      continue;
    }
    if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option '${a}'`);
    if (opts.input !== null) throw new UsageError(`more than one input file ('${opts.input}', '${a}')`);
    opts.input = a;
  }

  // slangc lets "-stage X" stand alone when there is no -entry: the module's
  // [shader("...")] entry points are compiled then, whatever their stage.
  if (pendingStage !== null && opts.entries.length > 0)
    throw new UsageError(`option '-stage ${pendingStage}' follows no '-entry'`);
  if (opts.help || opts.version) return opts;

  if (opts.input === null) throw new UsageError('no input file');
  if (opts.target === null && opts.output !== null) {
    const dot = opts.output.lastIndexOf('.');
    const ext = dot >= 0 ? opts.output.slice(dot).toLowerCase() : '';
    if (Object.hasOwn(EXTENSION_TARGETS, ext)) opts.target = EXTENSION_TARGETS[ext];
  }
  if (opts.target === null) throw new UsageError("no target: give '-target'");
  if (!Object.hasOwn(TARGETS, opts.target) && !Object.hasOwn(MISSING_DOWNSTREAM, opts.target))
    throw new UsageError(`unknown or unsupported target '${opts.target}'`);
  if (opts.profile !== null && opts.target !== 'spirv')
    throw new UsageError(
      `option '-profile ${opts.profile}' is not supported for target '${opts.target}': ` +
        'it names a SPIR-V version, which only the spirv target has',
    );
  for (const e of opts.entries) e.stage = e.stageName === null ? null : STAGES[e.stageName];
  return opts;
}

function parseDefine(text) {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  const val = eq < 0 ? '' : text.slice(eq + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`invalid macro name in '-D${text}'`);
  if (/[\r\n]/.test(val)) throw new UsageError(`macro value of '${name}' spans lines`);
  return [name, val];
}

export const HELP = `usage: slangc-wasm FILE.slang [options]

Compiles a Slang module with Slang's WebAssembly build; a subset of slangc's
command line.

  -target spirv|wgsl|metal|hlsl|glsl|cuda|ptx
                          target language (inferred from -o's extension if absent)
  -entry NAME             entry point; repeat for several (one combined module)
  -stage STAGE            stage of the preceding -entry (compute, vertex,
                          fragment, hull, domain, geometry, raygeneration,
                          intersection, anyhit, closesthit, miss, callable,
                          mesh, amplification)
  -o FILE                 output file (standard output if absent)
  -reflection-json FILE   write the reflection JSON
  -depfile FILE           write a Makefile dependency file
  -D NAME[=VALUE]         define a preprocessor macro (also -DNAME[=VALUE])
  -I DIR                  add an include and import search folder (also -IDIR)
  -matrix-layout-row-major
                          row-major matrices (the only layout supported)
  -profile spirv_1_5      SPIR-V 1.5, for -target spirv (the only version its
                          sessions write; the output is checked to be 1.5)
  -skip-codegen           check and link, write the reflection JSON and the
                          depfile, generate no code (-o is not written)
  -v, -version            print the Slang version
  -h, --help              print this help
  --serve                 answer compile jobs on standard input (one JSON
                          array of arguments per line), see docs/slangc-wasm.md
`;
