// dgpb-rhi-run - a native host on unmodified slang-rhi that runs one compute
// entry, or draws one vertex and fragment pair, of a bundle through the replay
// shim (docs/host.md, "A native host with slang-rhi"). No Slang library is
// loaded: the program is linked against libdgpb-slang-shim.so, which answers
// slang-rhi's reflection questions from the bundle's layout blob and hands it
// the bundle's code.
//
//   dgpb-rhi-run [--api vulkan|cuda] [--in NAME=FILE|NAME=TYPE:V,...] [--size NAME=BYTES]
//                [--set NAME=[TYPE:]V,...] [--texture NAME=FORMAT:WxH[xD][:DIM]]
//                [--groups X[,Y[,Z]] | --threads X[,Y[,Z]]] [--repeat N] [--out-dir DIR]
//                [--fragment ENTRY --vertices N --attachment NAME=FORMAT:WxH]
//                BUNDLE ENTRY
//
// The options are dgpb-run's (docs/run.md) for buffers, textures and values;
// after the dispatches every buffer and texture row is read back and written
// to DIR/<row name>.bin (texels tightly packed), so a test compares them with
// `dgpb-run --out`. With --fragment, ENTRY is a vertex entry: slang-rhi's
// render pipeline is created from the program of their layout, which must
// hold exactly these two entries (slang-rhi builds a pipeline from every
// entry of a program); N vertices are drawn into a colour attachment NAME of
// FORMAT and W x H, cleared to zero, with the viewport of dgpb-run's runner
// (docs/host.md), and its texels are written to DIR/NAME.bin. Every row (of
// both entries) is bound by its name through slang-rhi's ShaderCursor, which
// walks the shim's reflection; the parameter table gives the rows and their
// kinds. Exit statuses: 0 ran, 1 the device or slang-rhi failed, 2 usage, 3 a
// file could not be read or written, 4 the bundle, a layout or a blob's
// SHA-256 is bad, 5 no target for the API, 8 a Slang library is loaded in
// the process.
#include <slang-rhi.h>
#include <slang-rhi/shader-cursor.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"
#include "dgpb/slang_shim.h"

using namespace rhi;

namespace
{

enum {
    EXIT_RUN = 1,
    EXIT_USAGE = 2,
    EXIT_IO = 3,
    EXIT_CORRUPT = 4,
    EXIT_TARGET = 5,
    EXIT_SLANG = 8
};

struct Options {
    std::string api = "vulkan";
    std::map<std::string, std::string> in, set;
    std::map<std::string, size_t> size;
    std::map<std::string, std::string> texture;
    uint32_t groups[3] = {0, 0, 0}, threads[3] = {0, 0, 0};
    uint32_t repeat = 1;
    std::string out_dir = ".";
    std::string fragment, attachment;
    uint32_t vertices = 0;
    std::string bundle, entry;
};

int fail(int status, const std::string &message)
{
    std::fprintf(stderr, "dgpb-rhi-run: %s\n", message.c_str());
    return status;
}

bool read_file(const std::string &path, std::vector<uint8_t> &out)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

bool parse_xyz(const char *text, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int i = 0; i < 3 && *text; i++) {
        char *end;
        unsigned long v = std::strtoul(text, &end, 10);
        if (end == text || v == 0 || v > 0xFFFFFFFFul)
            return false;
        out[i] = (uint32_t)v;
        text = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return *text == 0;
}

bool split(const std::string &arg, std::string &name, std::string &value)
{
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        return false;
    name = arg.substr(0, eq);
    value = arg.substr(eq + 1);
    return true;
}

int parse(int argc, char **argv, Options &o)
{
    std::vector<std::string> rest;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        std::string name, value;
        if (a == "--api" && has_value)
            o.api = argv[++i];
        else if (a == "--repeat" && has_value) {
            char *end;
            unsigned long n = std::strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 1000000)
                return fail(EXIT_USAGE, "--repeat " + std::string(argv[i]) + ": not 1 to 1000000");
            o.repeat = (uint32_t)n;
        } else if (a == "--vertices" && has_value) {
            char *end;
            unsigned long n = std::strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 1000000)
                return fail(EXIT_USAGE,
                            "--vertices " + std::string(argv[i]) + ": not 1 to 1000000");
            o.vertices = (uint32_t)n;
        } else if (a == "--out-dir" && has_value)
            o.out_dir = argv[++i];
        else if (a == "--fragment" && has_value)
            o.fragment = argv[++i];
        else if (a == "--attachment" && has_value)
            o.attachment = argv[++i];
        else if ((a == "--in" || a == "--set" || a == "--texture") && has_value &&
                 split(argv[i + 1], name, value))
            (a == "--in" ? o.in : a == "--set" ? o.set : o.texture)[name] = value, i++;
        else if (a == "--size" && has_value && split(argv[i + 1], name, value)) {
            char *end;
            unsigned long long n = std::strtoull(value.c_str(), &end, 10);
            if (*end || n == 0)
                return fail(EXIT_USAGE, "--size " + std::string(argv[i + 1]) + ": not a size");
            o.size[name] = (size_t)n, i++;
        } else if ((a == "--groups" || a == "--threads") && has_value) {
            if (!parse_xyz(argv[++i], a == "--groups" ? o.groups : o.threads))
                return fail(EXIT_USAGE, a + " " + argv[i] + ": not X[,Y[,Z]]");
        } else if (a.size() > 1 && a[0] == '-')
            return fail(EXIT_USAGE, "unknown or incomplete option " + a);
        else
            rest.push_back(a);
    }
    if (rest.size() != 2 || (o.api != "vulkan" && o.api != "cuda"))
        return fail(EXIT_USAGE,
                    "usage: dgpb-rhi-run [--api vulkan|cuda] [--in NAME=FILE|TYPE:V,...] "
                    "[--size NAME=BYTES] [--set NAME=[TYPE:]V,...] "
                    "[--texture NAME=FORMAT:WxH[xD][:DIM]] [--groups X,Y,Z | "
                    "--threads X,Y,Z] [--repeat N] [--out-dir DIR] [--fragment ENTRY "
                    "--vertices N --attachment NAME=FORMAT:WxH] BUNDLE ENTRY");
    if (!o.fragment.empty() && (o.vertices == 0 || o.attachment.empty()))
        return fail(EXIT_USAGE, "--fragment needs --vertices and --attachment");
    o.bundle = rest[0];
    o.entry = rest[1];
    return 0;
}

// The bytes of `--in NAME=...`: inline TYPE:V1,... values, else a file's contents.
int input_bytes(const std::string &text, std::vector<uint8_t> &out)
{
    size_t colon = text.find(':');
    int type = colon == std::string::npos ? -1 : dgpb_value_type_from_name(text.c_str(), colon);
    if (type < 0)
        return read_file(text, out) ? 0 : fail(EXIT_IO, "cannot read '" + text + "'");
    uint8_t *bytes;
    size_t n;
    dgpb_diag diag;
    if (dgpb_value_parse((uint32_t)type, text.c_str() + colon + 1, &bytes, &n, &diag))
        return fail(EXIT_USAGE, "--in " + text + ": " + diag.message);
    out.assign(bytes, bytes + n);
    dgpb_free(bytes);
    return 0;
}

// True when any mapped file of this process is a Slang library (libslang*.so*).
bool slang_loaded(std::string &which)
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        size_t slash = line.rfind('/');
        if (slash != std::string::npos && line.compare(slash + 1, 8, "libslang") == 0) {
            which = line.substr(line.find('/'));
            return true;
        }
    }
    return false;
}

class Messages : public IDebugCallback
{
  public:
    SLANG_NO_THROW void SLANG_MCALL handleMessage(DebugMessageType type, DebugMessageSource,
                                                  const char *message) override
    {
        if (type == DebugMessageType::Error)
            std::fprintf(stderr, "dgpb-rhi-run: slang-rhi: %s\n", message);
    }
};

bool is_buffer(uint32_t kind)
{
    return kind == DGPB_KIND_BUFFER || kind == DGPB_KIND_RW_BUFFER ||
           kind == DGPB_KIND_BYTE_BUFFER || kind == DGPB_KIND_RW_BYTE_BUFFER;
}

std::string row_name(const dgpb_param_view &p)
{
    return std::string(p.name.ptr, p.name.len);
}

// The uniform block row that value row `p` lies in (same space and binding), or "".
// A `cbuffer Settings { uint count; }` member is the row `count`; slang-rhi's cursor
// finds it as `Settings.count`.
std::string enclosing_block(const std::vector<dgpb_param_view> &rows, const dgpb_param_view &p)
{
    for (size_t i = 0; p.kind == DGPB_KIND_VALUE && i < rows.size(); i++) {
        const dgpb_param_view &b = rows[i];
        if (b.kind == DGPB_KIND_UNIFORM_BUFFER && b.space == p.space && b.binding == p.binding)
            return row_name(b);
    }
    return "";
}

// A texture as --texture describes it (dgpb-run's syntax, docs/run.md).
struct TextureShape {
    uint32_t format = 0, width = 0, height = 1, depth = 1, dim = DGPB_RUN_DIM_2D;
    uint32_t texel = 0;
};

bool parse_texture(const std::string &text, TextureShape &t)
{
    size_t colon = text.find(':');
    if (colon == std::string::npos)
        return false;
    int format = dgpb_run_format_from_name(text.substr(0, colon).c_str());
    if (format <= 0)
        return false;
    t.format = (uint32_t)format;
    t.texel = dgpb_run_format_texel_size(t.format);
    std::string rest = text.substr(colon + 1), dims = rest;
    size_t colon2 = rest.find(':');
    if (colon2 != std::string::npos) {
        dims = rest.substr(0, colon2);
        int dim = dgpb_run_dim_from_name(rest.substr(colon2 + 1).c_str());
        if (dim < 0)
            return false;
        t.dim = (uint32_t)dim;
    }
    unsigned w = 0, h = 1, d = 1;
    int n = std::sscanf(dims.c_str(), "%ux%ux%u", &w, &h, &d);
    if (n < 1 || w == 0 || h == 0 || d == 0)
        return false;
    t.width = w, t.height = h, t.depth = d;
    if (t.dim == DGPB_RUN_DIM_CUBE)
        t.depth = 6;
    if (t.dim == DGPB_RUN_DIM_CUBE_ARRAY && t.depth % 6 != 0)
        return false;
    return true;
}

Format rhi_format(uint32_t format)
{
    switch (format) {
    case DGPB_RUN_FORMAT_R16FLOAT:
        return Format::R16Float;
    case DGPB_RUN_FORMAT_R32FLOAT:
        return Format::R32Float;
    case DGPB_RUN_FORMAT_RG32FLOAT:
        return Format::RG32Float;
    case DGPB_RUN_FORMAT_RGBA32FLOAT:
        return Format::RGBA32Float;
    case DGPB_RUN_FORMAT_R32UINT:
        return Format::R32Uint;
    case DGPB_RUN_FORMAT_RGBA8UNORM:
        return Format::RGBA8Unorm;
    case DGPB_RUN_FORMAT_RGBA16FLOAT:
        return Format::RGBA16Float;
    case DGPB_RUN_FORMAT_R32SINT:
        return Format::R32Sint;
    case DGPB_RUN_FORMAT_RGBA32UINT:
        return Format::RGBA32Uint;
    case DGPB_RUN_FORMAT_RGBA32SINT:
        return Format::RGBA32Sint;
    case DGPB_RUN_FORMAT_DEPTH32FLOAT:
        return Format::D32Float;
    case DGPB_RUN_FORMAT_DEPTH16UNORM:
        return Format::D16Unorm;
    default:
        return Format::Undefined;
    }
}

// Layers are separate subresources for arrays and cubes (every face of every cube); a 3D
// texture is one.
uint32_t layer_count(const TextureShape &t)
{
    return t.dim == DGPB_RUN_DIM_CUBE || t.dim == DGPB_RUN_DIM_2D_ARRAY ||
                   t.dim == DGPB_RUN_DIM_CUBE_ARRAY
               ? t.depth
               : 1;
}

Result create_texture(IDevice *device, const TextureShape &t, bool writable,
                      const std::vector<uint8_t> &init, ComPtr<ITexture> &out)
{
    TextureDesc td;
    td.type = t.dim == DGPB_RUN_DIM_1D           ? TextureType::Texture1D
              : t.dim == DGPB_RUN_DIM_3D         ? TextureType::Texture3D
              : t.dim == DGPB_RUN_DIM_CUBE       ? TextureType::TextureCube
              : t.dim == DGPB_RUN_DIM_2D_ARRAY   ? TextureType::Texture2DArray
              : t.dim == DGPB_RUN_DIM_CUBE_ARRAY ? TextureType::TextureCubeArray
                                                 : TextureType::Texture2D;
    uint32_t layers = layer_count(t);
    td.size = {t.width, t.height, layers == 1 ? t.depth : 1};
    // slang-rhi counts a cube array's length in cubes (six layers each).
    td.arrayLength = t.dim == DGPB_RUN_DIM_2D_ARRAY     ? layers
                     : t.dim == DGPB_RUN_DIM_CUBE_ARRAY ? layers / 6
                                                        : 1;
    td.format = rhi_format(t.format);
    td.usage = TextureUsage::ShaderResource | TextureUsage::CopySource |
               TextureUsage::CopyDestination |
               (writable ? TextureUsage::UnorderedAccess : TextureUsage::None);
    td.defaultState = writable ? ResourceState::UnorderedAccess : ResourceState::ShaderResource;
    size_t row = (size_t)t.width * t.texel, slice = row * t.height;
    std::vector<SubresourceData> data(layers);
    for (uint32_t l = 0; l < layers; l++)
        data[l] = {init.data() + l * slice, row, slice};
    return device->createTexture(td, data.data(), out.writeRef());
}

// The texture's texels, tightly packed (rows, then slices, then layers), as dgpb-run writes.
Result read_texture(IDevice *device, ITexture *texture, const TextureShape &t,
                    std::vector<uint8_t> &out)
{
    size_t row = (size_t)t.width * t.texel;
    out.clear();
    for (uint32_t l = 0; l < layer_count(t); l++) {
        ComPtr<ISlangBlob> blob;
        SubresourceLayout layout;
        SLANG_RETURN_ON_FAIL(device->readTexture(texture, l, 0, blob.writeRef(), &layout));
        const uint8_t *base = (const uint8_t *)blob->getBufferPointer();
        for (uint32_t z = 0; z < layout.size.depth; z++)
            for (uint32_t y = 0; y < layout.size.height; y++) {
                const uint8_t *src = base + z * layout.slicePitch + y * layout.rowPitch;
                out.insert(out.end(), src, src + row);
            }
    }
    return SLANG_OK;
}

int run(const Options &o)
{
    uint32_t backend = o.api == "cuda" ? DGPB_BACKEND_CUDA : DGPB_BACKEND_VULKAN;
    uint8_t *bytes = nullptr;
    dgpb_bundle *bundle = nullptr;
    const dgpb_target_view *target = nullptr;
    dgpb_diag diag;
    int r = dgpb_run_load_bundle(o.bundle.c_str(), backend, &bytes, &bundle, &target, &diag);
    if (r)
        return fail(dgpb_result_class(r) == DGPB_ERR_IO        ? EXIT_IO
                    : dgpb_result_class(r) == DGPB_ERR_BACKEND ? EXIT_TARGET
                                                               : EXIT_CORRUPT,
                    o.bundle + ": " + diag.message);
    struct Cleanup {
        uint8_t *b;
        dgpb_bundle *h;
        ~Cleanup()
        {
            dgpb_bundle_close(h);
            dgpb_free(b);
        }
    } cleanup{bytes, bundle};

    const dgpb_entry_view *entry, *fragment = nullptr;
    if (dgpb_target_find_entry(target, o.entry.c_str(), &entry, &diag))
        return fail(EXIT_USAGE, o.bundle + ": " + diag.message);
    bool render = !o.fragment.empty();
    // Compute entries, and vertex entries drawn with a fragment one; the other stages (hull,
    // domain, geometry, mesh, amplification, ray tracing) are refused by name.
    std::string stage = dgpb_stage_name(entry->stage_id);
    if (!render && entry->stage_id != DGPB_STAGE_COMPUTE)
        return fail(EXIT_USAGE, o.entry + " is a " + stage +
                                    " entry, not a compute entry: this example runs compute "
                                    "entries, and draws a vertex entry with --fragment");
    TextureShape attachment;
    std::string attachment_name;
    if (render) {
        if (entry->stage_id != DGPB_STAGE_VERTEX)
            return fail(EXIT_USAGE, o.entry + " is a " + stage +
                                        " entry, not a vertex entry: " + stage +
                                        " pipelines are not supported by this example (it draws "
                                        "a vertex and a fragment entry only)");
        if (dgpb_target_find_entry(target, o.fragment.c_str(), &fragment, &diag))
            return fail(EXIT_USAGE, o.bundle + ": " + diag.message);
        if (fragment->stage_id != DGPB_STAGE_FRAGMENT)
            return fail(EXIT_USAGE, o.fragment + " is not a fragment entry");
        if (fragment->layout != entry->layout)
            return fail(EXIT_USAGE, o.entry + " and " + o.fragment +
                                        " have different layouts: they are not one render group");
        // The shim's program holds every entry of the layout, and slang-rhi builds a render
        // pipeline from every entry of a program: a group of more entries would give it
        // more than one shader of a stage.
        uint32_t in_group = 0;
        std::string stages;
        for (uint32_t i = 0; i < target->entry_count; i++)
            if (target->entries[i].layout == entry->layout) {
                in_group++;
                stages += (stages.empty() ? "" : ", ") +
                          std::string(dgpb_stage_name(target->entries[i].stage_id));
            }
        if (in_group != 2)
            return fail(EXIT_USAGE, "layout " + std::to_string(entry->layout) + " holds " +
                                        std::to_string(in_group) + " entries (" + stages +
                                        "): render groups of more than one vertex and "
                                        "one fragment entry are not supported by this example");
        std::string shape;
        if (!split(o.attachment, attachment_name, shape) || !parse_texture(shape, attachment) ||
            attachment.dim != DGPB_RUN_DIM_2D || attachment.depth != 1)
            return fail(EXIT_USAGE, "--attachment " + o.attachment + ": not NAME=FORMAT:WxH");
    }

    // The rows: the entry's, then the fragment entry's that the vertex entry has not.
    std::vector<dgpb_param_view> rows;
    std::vector<const dgpb_entry_view *> row_entry;
    for (const dgpb_entry_view *e : {entry, fragment}) {
        for (uint32_t i = 0; e && i < e->param_count; i++) {
            bool seen = false;
            for (const dgpb_param_view &r : rows)
                seen = seen || row_name(r) == row_name(e->params[i]);
            if (!seen)
                rows.push_back(e->params[i]), row_entry.push_back(e);
        }
    }

    // The program: the layout and its entries' code, each blob's SHA-256 checked by the shim.
    void *program = nullptr;
    if (dgpb_create_precompiled_program_from_target(target, entry->layout, &program, &diag))
        return fail(EXIT_CORRUPT, o.bundle + ": " + diag.message);
    ComPtr<slang::IComponentType> slang_program;
    slang_program.attach((slang::IComponentType *)program);

    // What slang-rhi cannot bind is refused before a device is made (exit 2, "not supported
    // by this example"), never left to crash it.
    for (const dgpb_param_view &p : rows)
        if (p.flags & DGPB_FLAG_SHARED_BINDING)
            return fail(EXIT_USAGE, row_name(p) +
                                        ": a texture and a sampler sharing one binding "
                                        "(shared_binding) are not supported by this example "
                                        "(slang-rhi makes a descriptor of each binding range, so "
                                        "the pair would give its Vulkan descriptor set layout two "
                                        "bindings of one number)");
    // A [[vk::push_constant]] block among the global parameters: slang-rhi gives a binding range
    // of type PushConstant no sub-object (its cursor cannot reach the block's fields) and stops
    // on it when it binds; push constants of its own are the entries' uniform parameters.
    if (slang::ProgramLayout *layout = slang_program->getLayout()) {
        slang::VariableLayoutReflection *globals = layout->getGlobalParamsVarLayout();
        slang::TypeLayoutReflection *tl = globals ? globals->getTypeLayout() : nullptr;
        for (SlangInt b = 0; tl && b < tl->getBindingRangeCount(); b++) {
            if (tl->getBindingRangeType(b) != slang::BindingType::PushConstant)
                continue;
            std::string name = "a global push-constant block";
            for (const dgpb_param_view &p : rows)
                if (p.space == DGPB_SPACE_LAUNCH) {
                    name = row_name(p);
                    break;
                }
            return fail(EXIT_USAGE,
                        name + ": [[vk::push_constant]] blocks among the global parameters are "
                               "not supported by this example (slang-rhi gives a PushConstant "
                               "binding range no sub-object, so its cursor cannot reach the "
                               "block; it binds push constants from entry uniforms only)");
        }
    }

    Messages messages;
    DeviceDesc device_desc;
    device_desc.deviceType = backend == DGPB_BACKEND_CUDA ? DeviceType::CUDA : DeviceType::Vulkan;
    device_desc.debugCallback = &messages;
    ComPtr<IDevice> device;
    if (SLANG_FAILED(getRHI()->createDevice(device_desc, device.writeRef())))
        return fail(EXIT_RUN, "no " + o.api + " device");
    std::fprintf(stderr, "dgpb-rhi-run: device %s\n", device->getInfo().adapterName);

    ShaderProgramDesc program_desc;
    program_desc.slangGlobalScope = slang_program.get();
    ComPtr<IShaderProgram> shader_program;
    ComPtr<ISlangBlob> diagnostics;
    if (SLANG_FAILED(device->createShaderProgram(program_desc, shader_program.writeRef(),
                                                 diagnostics.writeRef())))
        return fail(EXIT_RUN, "createShaderProgram failed");
    ComPtr<IComputePipeline> pipeline;
    ComPtr<IRenderPipeline> render_pipeline;
    ComPtr<ITexture> target_texture;
    if (render) {
        if (rhi_format(attachment.format) == Format::Undefined)
            return fail(EXIT_USAGE, "--attachment " + o.attachment + ": no such format");
        TextureDesc td;
        td.type = TextureType::Texture2D;
        td.size = {attachment.width, attachment.height, 1};
        td.format = rhi_format(attachment.format);
        td.usage = TextureUsage::RenderTarget | TextureUsage::CopySource;
        td.defaultState = ResourceState::RenderTarget;
        if (SLANG_FAILED(device->createTexture(td, nullptr, target_texture.writeRef())))
            return fail(EXIT_RUN, attachment_name + ": createTexture failed");
        ColorTargetDesc color;
        color.format = td.format;
        RenderPipelineDesc rd;
        rd.program = shader_program;
        rd.primitiveTopology = PrimitiveTopology::TriangleList;
        rd.targets = &color;
        rd.targetCount = 1;
        if (SLANG_FAILED(device->createRenderPipeline(rd, render_pipeline.writeRef())))
            return fail(EXIT_RUN, "createRenderPipeline failed");
    } else {
        ComputePipelineDesc pipeline_desc;
        pipeline_desc.program = shader_program;
        if (SLANG_FAILED(device->createComputePipeline(pipeline_desc, pipeline.writeRef())))
            return fail(EXIT_RUN, "createComputePipeline failed");
    }

    // Resources, one per row.
    std::vector<std::string> named;
    for (const auto &kv : o.in)
        named.push_back(kv.first);
    for (const auto &kv : o.size)
        named.push_back(kv.first);
    for (const auto &kv : o.set)
        named.push_back(kv.first);
    for (const auto &kv : o.texture)
        named.push_back(kv.first);
    for (const std::string &name : named) {
        bool found = false;
        for (size_t i = 0; i < rows.size() && !found; i++)
            found = row_name(rows[i]) == name;
        if (!found)
            return fail(EXIT_USAGE, o.entry + (render ? " and " + o.fragment + " have" : " has") +
                                        " no row " + name);
    }
    std::vector<ComPtr<IBuffer>> buffers(rows.size());
    std::vector<ComPtr<ITexture>> textures(rows.size());
    std::vector<TextureShape> shapes(rows.size());
    std::vector<std::vector<uint8_t>> values(rows.size());
    // The samplers: point sampling, clamped, as dgpb-run's; a row whose shape says comparison
    // (a SamplerComparisonState, or the sampler of a combined Sampler2DShadow) gets one that
    // passes where the reference is at most the texel (less or equal), as dgpb-run's does.
    ComPtr<ISampler> samplers[2];
    auto sampler_for = [&](const dgpb_param_view &p) -> ISampler * {
        bool compare = (p.offset & DGPB_SHAPE_COMPARISON) != 0;
        ComPtr<ISampler> &s = samplers[compare];
        if (!s) {
            SamplerDesc sd;
            sd.minFilter = sd.magFilter = sd.mipFilter = TextureFilteringMode::Point;
            sd.addressU = sd.addressV = sd.addressW = TextureAddressingMode::ClampToEdge;
            if (compare) {
                sd.reductionOp = TextureReductionOp::Comparison;
                sd.comparisonFunc = ComparisonFunc::LessEqual;
            }
            if (SLANG_FAILED(device->createSampler(sd, s.writeRef())))
                return nullptr;
        }
        return s;
    };
    for (size_t i = 0; i < rows.size(); i++) {
        const dgpb_param_view &p = rows[i];
        std::string name = row_name(p);
        if (is_buffer(p.kind)) {
            std::vector<uint8_t> init;
            if (o.in.count(name) && (r = input_bytes(o.in.at(name), init)))
                return r;
            size_t size = o.size.count(name) ? o.size.at(name) : init.size();
            if (size < init.size() || size == 0)
                return fail(EXIT_USAGE, name + ": give --size, or --in that fits it");
            init.resize(size < 4 ? 4 : size, 0);
            BufferDesc bd;
            bd.size = init.size();
            /* A structured buffer's row carries its element stride: slang-rhi's CUDA backend
               divides the buffer's bytes by elementSize for the count GetDimensions reads. */
            bd.elementSize =
                p.kind == DGPB_KIND_BUFFER || p.kind == DGPB_KIND_RW_BUFFER ? p.size : 0;
            bd.usage = BufferUsage::ShaderResource | BufferUsage::UnorderedAccess |
                       BufferUsage::CopySource | BufferUsage::CopyDestination;
            bd.defaultState = ResourceState::UnorderedAccess;
            bd.memoryType = MemoryType::DeviceLocal;
            if (SLANG_FAILED(device->createBuffer(bd, init.data(), buffers[i].writeRef())))
                return fail(EXIT_RUN, name + ": createBuffer failed");
        } else if (p.kind == DGPB_KIND_TEXTURE || p.kind == DGPB_KIND_RW_TEXTURE ||
                   p.kind == DGPB_KIND_TEXTURE_SAMPLER) {
            TextureShape &t = shapes[i];
            if (!o.texture.count(name) || !parse_texture(o.texture.at(name), t))
                return fail(EXIT_USAGE, name + ": give --texture NAME=FORMAT:WxH[xD][:DIM]");
            if (t.dim == DGPB_RUN_DIM_2D_MS || (p.offset & DGPB_SHAPE_MULTISAMPLED))
                return fail(EXIT_USAGE,
                            name + ": multisampled textures are not supported by this example "
                                   "(slang-rhi's createTexture uploads no initial texels into "
                                   "one, and Vulkan copies no buffer into one)");
            if (rhi_format(t.format) == Format::Undefined)
                return fail(EXIT_USAGE, name + ": the texture's format is not supported by this "
                                               "example");
            size_t bytes = (size_t)t.width * t.height * t.depth * t.texel;
            std::vector<uint8_t> init;
            if (o.in.count(name) && (r = input_bytes(o.in.at(name), init)))
                return r;
            if (!init.empty() && init.size() != bytes)
                return fail(EXIT_USAGE, name + ": --in has " + std::to_string(init.size()) +
                                            " bytes, the texture " + std::to_string(bytes));
            init.resize(bytes, 0);
            if (SLANG_FAILED(
                    create_texture(device, t, p.kind == DGPB_KIND_RW_TEXTURE, init, textures[i])))
                return fail(EXIT_RUN, name + ": createTexture failed");
        } else if (p.kind == DGPB_KIND_UNIFORM_BUFFER) {
            // A block given whole (--in): its bytes go into slang-rhi's constant buffer.
            if (o.in.count(name) && (r = input_bytes(o.in.at(name), values[i])))
                return r;
        } else if (p.kind == DGPB_KIND_VALUE && p.space == DGPB_SPACE_PIPELINE_CONSTANT) {
            // A pipeline constant keeps the code's default unless set.
            if (o.set.count(name))
                return fail(EXIT_USAGE, name + ": setting pipeline constants is not supported by "
                                               "this example (slang-rhi sets no specialization "
                                               "constant)");
        } else if (p.kind == DGPB_KIND_VALUE) {
            // A value not given stays zero (slang-rhi's ordinary data starts zeroed), as
            // dgpb-run leaves it; a block given whole (--in) holds its values already.
            if (!o.set.count(name))
                continue;
            uint8_t *v;
            size_t n;
            std::string owner(row_entry[i]->name.ptr, row_entry[i]->name.len);
            if (dgpb_run_value_bytes(bundle, target, owner.c_str(), name.c_str(),
                                     o.set.at(name).c_str(), &v, &n, &diag))
                return fail(EXIT_USAGE, "--set " + name + ": " + diag.message);
            values[i].assign(v, v + n);
            dgpb_free(v);
        } else if (p.kind == DGPB_KIND_SAMPLER) {
            if (!sampler_for(p))
                return fail(EXIT_RUN, "createSampler failed");
        } else {
            return fail(EXIT_USAGE, name + ": rows of kind " + std::string(dgpb_kind_name(p.kind)) +
                                        " are not supported by this example");
        }
    }

    uint32_t groups[3];
    for (int a = 0; a < 3; a++) {
        bool explicit_groups = o.groups[0] != 0;
        uint32_t tgs = entry->thread_group_size[a] ? entry->thread_group_size[a] : 1;
        uint32_t threads = o.threads[a] ? o.threads[a] : 1;
        groups[a] = explicit_groups ? o.groups[a] : (threads + tgs - 1) / tgs;
    }

    // Bind every row by its name and dispatch (or draw), `repeat` times over the same
    // resources.
    ComPtr<ICommandQueue> queue = device->getQueue(QueueType::Graphics);
    for (uint32_t d = 0; d < o.repeat; d++) {
        ComPtr<ICommandEncoder> encoder = queue->createCommandEncoder();
        IComputePassEncoder *compute_pass = nullptr;
        IRenderPassEncoder *render_pass = nullptr;
        IShaderObject *root;
        if (render) {
            RenderPassColorAttachment color;
            color.view = target_texture->getDefaultView();
            color.loadOp = LoadOp::Clear;
            color.storeOp = StoreOp::Store;
            RenderPassDesc rp;
            rp.colorAttachments = &color;
            rp.colorAttachmentCount = 1;
            render_pass = encoder->beginRenderPass(rp);
            root = render_pass->bindPipeline(render_pipeline);
        } else {
            compute_pass = encoder->beginComputePass();
            root = compute_pass->bindPipeline(pipeline);
        }
        ShaderCursor cursor(root);
        for (size_t i = 0; i < rows.size(); i++) {
            const dgpb_param_view &p = rows[i];
            std::string name = row_name(p);
            if (!buffers[i] && !textures[i] && values[i].empty() && p.kind != DGPB_KIND_SAMPLER)
                continue; // nothing given: zeros, or the code's default
            ShaderCursor c = cursor.getPath(name.c_str());
            std::string block = enclosing_block(rows, p);
            if (!c.isValid() && !block.empty())
                c = cursor.getPath((block + "." + name).c_str());
            if (!c.isValid())
                return fail(EXIT_RUN, name + ": slang-rhi finds no such parameter in the layout");
            Result res = SLANG_OK;
            if (buffers[i])
                res = c.setBinding(Binding(buffers[i]));
            else if (textures[i] && p.kind == DGPB_KIND_TEXTURE_SAMPLER)
                res = c.setBinding(Binding(textures[i], sampler_for(p)));
            else if (textures[i])
                res = c.setBinding(Binding(textures[i]));
            else if (p.kind == DGPB_KIND_UNIFORM_BUFFER && !values[i].empty())
                res = c.getDereferenced().setData(values[i].data(), values[i].size());
            else if (p.kind == DGPB_KIND_VALUE && !values[i].empty())
                res = c.setData(values[i].data(), values[i].size());
            else if (p.kind == DGPB_KIND_SAMPLER)
                res = c.setBinding(Binding(sampler_for(p)));
            if (SLANG_FAILED(res))
                return fail(EXIT_RUN, name + ": binding failed");
        }
        if (render) {
            // slang-rhi's Vulkan viewport flips y (origin + extent, negative height); this
            // one, flipped, is dgpb-run's: y 0, height H.
            RenderState state;
            state.viewports[0] =
                Viewport::fromSize((float)attachment.width, -(float)attachment.height);
            state.viewports[0].originY = (float)attachment.height;
            state.viewportCount = 1;
            state.scissorRects[0] = ScissorRect::fromSize(attachment.width, attachment.height);
            state.scissorRectCount = 1;
            render_pass->setRenderState(state);
            DrawArguments draw;
            draw.vertexCount = o.vertices;
            render_pass->draw(draw);
            render_pass->end();
        } else {
            compute_pass->dispatchCompute(groups[0], groups[1], groups[2]);
            compute_pass->end();
        }
        ComPtr<ICommandBuffer> commands;
        if (SLANG_FAILED(encoder->finish(commands.writeRef())) ||
            SLANG_FAILED(queue->submit(commands)) || SLANG_FAILED(queue->waitOnHost()))
            return fail(EXIT_RUN, render ? "the draw failed" : "the dispatch failed");
    }

    // The attachment, every texture and every buffer back, as DIR/<name>.bin.
    if (render) {
        std::vector<uint8_t> texels;
        if (SLANG_FAILED(read_texture(device, target_texture, attachment, texels)))
            return fail(EXIT_RUN, attachment_name + ": readTexture failed");
        std::string path = o.out_dir + "/" + attachment_name + ".bin";
        std::ofstream f(path, std::ios::binary);
        f.write((const char *)texels.data(), (std::streamsize)texels.size());
        if (!f)
            return fail(EXIT_IO, "cannot write '" + path + "'");
    }
    for (size_t i = 0; i < rows.size(); i++) {
        if (textures[i]) {
            std::string name = row_name(rows[i]);
            std::vector<uint8_t> texels;
            if (SLANG_FAILED(read_texture(device, textures[i], shapes[i], texels)))
                return fail(EXIT_RUN, name + ": readTexture failed");
            std::string path = o.out_dir + "/" + name + ".bin";
            std::ofstream f(path, std::ios::binary);
            f.write((const char *)texels.data(), (std::streamsize)texels.size());
            if (!f)
                return fail(EXIT_IO, "cannot write '" + path + "'");
        }
        if (!buffers[i])
            continue;
        std::string name = row_name(rows[i]);
        ComPtr<ISlangBlob> blob;
        if (SLANG_FAILED(
                device->readBuffer(buffers[i], 0, buffers[i]->getDesc().size, blob.writeRef())))
            return fail(EXIT_RUN, name + ": readBuffer failed");
        size_t size = o.size.count(name) ? o.size.at(name) : blob->getBufferSize();
        std::string path = o.out_dir + "/" + name + ".bin";
        std::ofstream f(path, std::ios::binary);
        f.write((const char *)blob->getBufferPointer(), (std::streamsize)size);
        if (!f)
            return fail(EXIT_IO, "cannot write '" + path + "'");
    }
    if (render)
        std::fprintf(stderr, "dgpb-rhi-run: %s and %s drew %u vertices %u times\n", o.entry.c_str(),
                     o.fragment.c_str(), o.vertices, o.repeat);
    else
        std::fprintf(stderr, "dgpb-rhi-run: %s ran %u times on %u,%u,%u groups\n", o.entry.c_str(),
                     o.repeat, groups[0], groups[1], groups[2]);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    // No Slang library may be mapped: not at start (a preloaded one would answer in the
    // shim's place), not after the run (one slang-rhi or a driver loaded).
    std::string which;
    if (slang_loaded(which))
        return fail(EXIT_SLANG, "a Slang library is loaded in this process: " + which);
    Options o;
    int r = parse(argc, argv, o);
    if (r)
        return r;
    r = run(o);
    if (slang_loaded(which))
        return fail(EXIT_SLANG, "a Slang library is loaded in this process: " + which);
    return r;
}
