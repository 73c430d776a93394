"""dgpb_bundle: one Slang module built into a DGPB bundle by dgpb-build (docs/bazel.md).

    load("@dgpb_rules//:defs.bzl", "dgpb_bundle")

    dgpb_bundle(
        name = "blur",                       # the bundle's stem: blur.dgpb, blur.bundle.json
        module = "blur.slang",
        srcs = ["include/common.slangh"],    # every file the module includes or imports
        include_dirs = ["include"],          # -I, relative to this package
        defines = ["RADIUS=2"],              # -D
        targets = ["spirv", "wgsl"],         # --targets (default: all the triple loads)
        matrix_layout = "column",            # --matrix-layout (default: row)
        spirv_version = "1.6",               # --spirv-version (default: Slang's)
        capabilities = ["spvImageQuery"],    # --capability, each a Slang capability
        block_layout = "scalar",             # --block-layout (default: default)
        optimization = "0",                  # --optimization, -O (default: Slang's, 1)
        debug_info = "2",                    # --debug-info, -g (default: 0, none)
        header = True,                       # also blur.h, the C header (--emit-header)
    )

Each bundle is one action that runs the installed dgpb-build (the repository
that dgpb_installation() in repositories.bzl makes, @dgpb by default) with
every input declared: the module, its srcs, dgpb-build and the embedded
compiler's files. Paths on the command line are relative to the execution
root, and the bundle and its view hold no path, so an action's key and its
outputs are the same in every checkout, output base and machine: Bazel's disk
cache, remote cache and remote execution serve them. dgpb-build's own cache is
off (--no-cache): Bazel is the cache. Node.js, which runs the embedded
compiler, is a tool of the host (or of the executor's image): the folder it
was found in is the actions' PATH.
"""

DgpbToolsInfo = provider(
    doc = "An installed dgpb that dgpb_bundle actions run (made by dgpb_tools).",
    fields = {
        "build": "File: bin/dgpb-build",
        "slangc": "File: the embedded compiler's slangc-wasm script",
        "files": "depset of File: every file an action needs besides the module's own",
        "path": "string: the actions' PATH (Node.js's folder first)",
    },
)

def _dgpb_tools_impl(ctx):
    files = depset(
        [ctx.executable.build, ctx.file.slangc] + ctx.files.layout_recorder,
        transitive = [depset(ctx.files.compiler_files)],
    )
    return [DgpbToolsInfo(
        build = ctx.executable.build,
        slangc = ctx.file.slangc,
        files = files,
        path = ctx.attr.path,
    )]

dgpb_tools = rule(
    implementation = _dgpb_tools_impl,
    doc = "The installed dgpb that dgpb_bundle runs; dgpb_installation() writes one as @dgpb//:dgpb.",
    attrs = {
        "build": attr.label(
            doc = "dgpb-build",
            mandatory = True,
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
        "slangc": attr.label(
            doc = "the embedded compiler's slangc-wasm script",
            mandatory = True,
            allow_single_file = True,
        ),
        "layout_recorder": attr.label(
            doc = "dgpb-slang-layout, installed next to dgpb-build",
            allow_single_file = True,
        ),
        "compiler_files": attr.label_list(
            doc = "the embedded compiler's other files: lib/, package.json, node_modules/",
            allow_files = True,
        ),
        "path": attr.string(
            doc = "PATH for the actions: the folder of Node.js first",
            mandatory = True,
        ),
    },
)

# Options the rule sets, or that would reach outside the action's declared
# inputs and outputs (a cache, a compiler, a depfile, kept temporaries).
_REFUSED_OPTS = [
    "-o",
    "--module-path",
    "-MD",
    "-MF",
    "--emit-header",
    "--slangc",
    "--triple",
    "--targets",
    "--cache-dir",
    "--cache-remote",
    "--cache-root",
    "--keep-temps",
    "--layout-recorder",
    "--slang-lib",
    "--matrix-layout",
    "--spirv-version",
    "--capability",
    "--block-layout",
    "--optimization",
    "--debug-info",
]

_SPIRV_VERSIONS = ["", "1.3", "1.4", "1.5", "1.6"]

# The values of --block-layout, --optimization and --debug-info (dgpb/vocabulary.def:
# DGPB_BLOCK_LAYOUT, DGPB_OPTIMIZATION, DGPB_DEBUG_INFO; tests/js/vocabulary.test.mjs holds
# these lists to it); "" for the levels: the default.
_BLOCK_LAYOUTS = ["default", "scalar", "gl", "c"]
_LEVELS = ["", "0", "1", "2", "3"]

def _join(*parts):
    return "/".join([p for p in parts if p])

def _stem(module_path):
    return module_path.replace(".", "_") if module_path else "main"

def _dgpb_bundle_impl(ctx):
    tools = ctx.attr.dgpb[DgpbToolsInfo]
    module = ctx.file.module
    module_path = ctx.attr.module_path or module.basename[:-len(".slang")]
    if ctx.attr.root_module:
        if ctx.attr.module_path:
            fail("give module_path or root_module, not both", attr = "root_module")
        module_path = ""
    stem = _stem(module_path)
    if stem != ctx.label.name:
        fail(("dgpb-build writes the bundle of module path '%s' as %s.dgpb: name the target " +
              "'%s', or give the module_path whose stem is '%s' (docs/bazel.md)") %
             (module_path, stem, stem, ctx.label.name))

    for c in ctx.attr.capabilities:
        ok = c != "" and (c[0].isalpha() or c[0] == "_")
        for ch in c.elems():
            ok = ok and (ch.isalnum() or ch == "_")
        if not ok:
            fail("'%s' is no Slang capability name (a letter or '_', then letters, digits and '_')" % c,
                 attr = "capabilities")

    for o in ctx.attr.opts:
        short_level = o == "-g" or (len(o) == 3 and (o.startswith("-O") or o.startswith("-g")))
        if (o in _REFUSED_OPTS or o.startswith("-MF") or o.split("=")[0] in _REFUSED_OPTS or
            short_level):
            fail("'%s' is not for opts: the rule sets it, or it would read or write files " % o +
                 "Bazel does not know of (docs/bazel.md)", attr = "opts")

    bundle = ctx.actions.declare_file(stem + ".dgpb")
    view = ctx.actions.declare_file(stem + ".bundle.json")
    outputs = [bundle, view]
    if ctx.attr.header:
        outputs.append(ctx.actions.declare_file(stem + ".h"))

    # -I folders are the package's; for generated srcs also their place under bazel-bin.
    package_dir = _join(ctx.label.workspace_root, ctx.label.package)
    roots = [""]
    if [f for f in ctx.files.srcs + [module] if not f.is_source]:
        roots.append(ctx.bin_dir.path)
    includes = []
    for d in ctx.attr.include_dirs:
        if d.startswith("/") or d == ".." or d.startswith("../"):
            fail("include_dirs are folders of this package: '%s'" % d, attr = "include_dirs")
        for r in roots:
            includes.append(_join(r, package_dir, d if d != "." else ""))

    # What every build of the installation shares: the arguments a persistent
    # worker starts with (its key), before --persistent_worker.
    startup = ctx.actions.args()
    startup.add("--no-cache")
    startup.add("-q")
    startup.add("--slangc", tools.slangc)

    # One module's build: a request to the worker, or the @file of a process.
    args = ctx.actions.args()
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    args.add("--triple", ctx.attr.triple)
    if ctx.attr.targets:
        args.add("--targets", ",".join(ctx.attr.targets))
    args.add("--module-path", module_path)
    if ctx.attr.header:
        args.add("--emit-header")
    if ctx.attr.matrix_layout != "row":
        args.add("--matrix-layout", ctx.attr.matrix_layout)
    if ctx.attr.spirv_version:
        args.add("--spirv-version", ctx.attr.spirv_version)
    for c in ctx.attr.capabilities:
        args.add("--capability", c)
    if ctx.attr.block_layout != "default":
        args.add("--block-layout", ctx.attr.block_layout)
    if ctx.attr.optimization:
        args.add("--optimization", ctx.attr.optimization)
    if ctx.attr.debug_info:
        args.add("--debug-info", ctx.attr.debug_info)
    for d in ctx.attr.defines:
        args.add("-D", d)
    for i in includes:
        args.add("-I", i or ".")
    args.add("-o", bundle.dirname)
    args.add_all(ctx.attr.opts)
    args.add(module)

    ctx.actions.run(
        executable = tools.build,
        arguments = [startup, args],
        inputs = depset([module] + ctx.files.srcs, transitive = [tools.files]),
        outputs = outputs,
        # No compile service: a process that outlives the action would be
        # outside Bazel's sandbox and accounting.
        env = {"PATH": tools.path, "DGPB_SERVICE": "off"},
        mnemonic = "DgpbBundle",
        progress_message = "Building shader bundle %s" % ctx.label,
        execution_requirements = {
            "supports-workers": "1",
            "requires-worker-protocol": "json",
        },
    )
    return [
        DefaultInfo(files = depset(outputs)),
        # The C header alone, for a cc_library's hdrs (filegroup output_group = "header").
        OutputGroupInfo(header = depset(outputs[2:])),
    ]

dgpb_bundle = rule(
    implementation = _dgpb_bundle_impl,
    doc = "One Slang module built into <name>.dgpb and <name>.bundle.json by dgpb-build.",
    attrs = {
        "module": attr.label(
            doc = "the module, a .slang file",
            mandatory = True,
            allow_single_file = [".slang"],
        ),
        "srcs": attr.label_list(
            doc = "every file the module includes or imports, transitively (only these are visible to the compile)",
            allow_files = True,
        ),
        "module_path": attr.string(
            doc = "--module-path: the module's dotted path (default: the file name without .slang); " +
                  "its stem, '.' turned into '_', must be the target's name",
        ),
        "root_module": attr.bool(
            doc = "the root module (an empty --module-path, stem 'main')",
        ),
        "targets": attr.string_list(
            doc = "--targets: spirv, wgsl, ptx, metal, dxil, dxbc (default: every target the triple loads)",
        ),
        "triple": attr.string(
            doc = "--triple: the platform that loads the bundle, never the machine that builds it",
            default = "x86_64-unknown-linux-gnu",
        ),
        "defines": attr.string_list(
            doc = "-D NAME[=VALUE] for every compile",
        ),
        "include_dirs": attr.string_list(
            doc = "-I folders, relative to this package",
        ),
        "matrix_layout": attr.string(
            doc = "--matrix-layout: 'row' (the default) or 'column', how matrices are laid out " +
                  "(docs/build.md, \"Project options\"); the embedded compiler takes 'row' only",
            default = "row",
            values = ["row", "column"],
        ),
        "spirv_version": attr.string(
            doc = "--spirv-version: 1.3, 1.4, 1.5 or 1.6, the SPIR-V version of every compile to " +
                  "SPIR-V (default '': Slang's); the embedded compiler takes '1.5' only",
            default = "",
            values = _SPIRV_VERSIONS,
        ),
        "capabilities": attr.string_list(
            doc = "--capability for each: Slang capabilities every compile gets; the embedded " +
                  "compiler takes none",
        ),
        "block_layout": attr.string(
            doc = "--block-layout: how the blocks of SPIR-V code are laid out, 'default' (Slang's " +
                  "rules), 'scalar', 'gl' or 'c' (docs/build.md, \"Project options\"); the " +
                  "embedded compiler takes 'default' only",
            default = "default",
            values = _BLOCK_LAYOUTS,
        ),
        "optimization": attr.string(
            doc = "--optimization: '0' to '3', slangc -O0 to -O3 (default '': Slang's, 1); the " +
                  "embedded compiler takes '' and '1' only",
            default = "",
            values = _LEVELS,
        ),
        "debug_info": attr.string(
            doc = "--debug-info: '0' to '3', slangc -g0 to -g3 (default '': none); the embedded " +
                  "compiler takes '' and '0' only",
            default = "",
            values = _LEVELS,
        ),
        "header": attr.bool(
            doc = "also write <name>.h, the bundle's C header (--emit-header; docs/build.md, " +
                  "\"The C header\"); output group 'header' holds it alone",
        ),
        "opts": attr.string_list(
            doc = "more dgpb-build options (--warnings-as-errors, --no-layouts, -j N); never one " +
                  "the rule sets (the project options are attributes), a cache, a compiler or a depfile",
        ),
        "dgpb": attr.label(
            doc = "the installed dgpb (dgpb_tools) that runs the build",
            default = "@dgpb//:dgpb",
            providers = [DgpbToolsInfo],
            cfg = "exec",
        ),
    },
)
