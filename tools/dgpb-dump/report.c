/*
 * report.c - dgpb-dump --report: one self-contained HTML page about a bundle.
 *
 * The page is made from the reader's views only, in four sections (a fifth,
 * the changes, with --diff): the file's size as bars (header, layouts, each
 * entry's code), the capability matrix of every target, every entry's
 * parameter table, and what storing each distinct blob once saves. Every
 * number a reviewer reads is also in a data-* attribute as an exact integer,
 * and every string from the bundle is HTML-escaped, so that tests can check
 * the page against `dgpb-dump --json` (tests/report/). Each target has one
 * colour (target_colour below), which its segment of the stacked bar, its
 * legend swatch and its size bars all take. The changes are the lines of
 * `dgpb-dump --diff` (diff.c). The page carries its CSS inline, loads nothing
 * and runs no script; its Content-Security-Policy forbids both.
 * docs/report.md describes the page and its attributes.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "report.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "code/code_format.h"
#include "dump.h"

/*
 * Each target's colour, defined once (dgpb/vocabulary.def, DGPB_TARGET's
 * colour): the page's CSS gives class "t-<target>" this background, and the
 * stacked bar's segment, the legend's swatch and every bar of the target's
 * own blobs carry that class. A target the bundle names and this build does
 * not know is drawn in OTHER_TARGET_COLOUR.
 */
static const char *const target_colour[DGPB_TARGET_COUNT] = {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [value] = colour,
#include "dgpb/vocabulary.def"
};
#define OTHER_TARGET_COLOUR "#566074"

/* One blob reference: a target's layout or an entry's code. */
typedef struct blob_use {
    uint32_t target;
    int32_t entry; /* -1 for a layout */
    uint32_t index;
    uint32_t offset;
    uint32_t size;
    const uint8_t *sha256;
    int32_t first; /* the use that stored these bytes; itself when it did */
    uint32_t uses; /* on a first use: how many uses share its bytes */
} blob_use;

/* Writes `len` bytes of text with &, <, >, " and ' escaped. */
static void esc_n(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(s[i], out);
        }
    }
}

static void esc(FILE *out, const char *s)
{
    esc_n(out, s, strlen(s));
}

static void esc_str(FILE *out, dgpb_str s)
{
    esc_n(out, s.ptr, s.len);
}

/* Formats `v` with thousands separators: 1234567 -> "1,234,567". */
static const char *num(uint64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
    return buf;
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The set access flag's name (if any), then " <name>" for each other set flag. */
static void flags_text(uint32_t flags, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if ((flags & DGPB_FLAG_##ID) && len < n)                                                       \
        len += (size_t)snprintf(out + len, n - len, "%s" name,                                     \
                                DGPB_FLAG_IS_##ACCESS && !len ? "" : " ");
#include "dgpb/vocabulary.def"
}

static const char page_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"generator\" content=\"dgpb-dump\">\n";

static const char page_style[] =
    "<style>\n"
    "body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}\n"
    "main{max-width:1100px;margin:0 auto;padding:16px 24px 48px}\n"
    "h1{font-size:22px;margin:8px 0 4px;word-break:break-all}\n"
    "h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5d9e0;padding-bottom:4px}\n"
    "h3{font-size:15px;margin:18px 0 4px}\n"
    "nav a{margin-right:14px}\n"
    ".meta{color:#566074}\n"
    "table{border-collapse:collapse;background:#fff;margin:6px 0 12px}\n"
    "th,td{border:1px solid #d5d9e0;padding:3px 8px;text-align:left;vertical-align:top}\n"
    "thead th{background:#eceff4}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "code,.mono{font-family:ui-monospace,monospace;font-size:12.5px}\n"
    ".bars{width:100%}\n"
    ".bars th{width:30%;word-break:break-all;font-weight:normal}\n"
    ".bars td.track{width:55%}\n"
    ".bars td.n,.bars th.n{width:12%}\n"
    ".bars tr.group th{font-weight:bold;background:#eceff4}\n"
    ".bar{height:14px;min-width:1px}\n"
    ".bar.header,.seg.header,.swatch.header{background:#7d8799}\n"
    ".bar.options,.seg.options,.swatch.options{background:#b8a36b}\n"
    ".bar.stored{background:#4a5568}\n"
    ".bar.shared{background:repeating-linear-gradient(45deg,#c3cde0 0 4px,#e3e8f1 4px 8px)}\n"
    ".stack{display:flex;height:22px;border:1px solid #b8bfcc;background:#fff;margin:8px 0}\n"
    ".stack .seg{height:100%}\n"
    ".legend span{display:inline-block;margin-right:16px}\n"
    ".swatch{display:inline-block;width:10px;height:10px;margin-right:4px}\n"
    "td.yes{background:#dff3e8;text-align:center;font-weight:bold;color:#1e7a4f}\n"
    "td.no{text-align:center;color:#b8bfcc}\n"
    ".breaking{color:#b3261e;font-weight:bold}\n"
    ".change-added{color:#1e7a4f}.change-removed{color:#b3261e}.change-changed{color:#8a5a00}\n";

/* The page's CSS: the fixed rules, then one colour class per target. */
static void write_style(FILE *out)
{
    fputs(page_style, out);
    for (uint32_t id = 0; id < DGPB_TARGET_COUNT; id++)
        fprintf(out, ".t-%s{background:%s}\n", dgpb_target_name(id),
                target_colour[id] ? target_colour[id] : OTHER_TARGET_COLOUR);
    fputs("</style>\n", out);
}

/* Collects every blob reference in placement order and links each to the use that stored it. */
static int collect_uses(const dgpb_bundle *b, blob_use **out, uint32_t *count, dgpb_diag *diag)
{
    uint32_t n = 0;
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        n += t->layout_count + t->entry_count;
    }
    blob_use *u = calloc(n ? n : 1, sizeof *u);
    if (!u)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    uint32_t k = 0;
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        for (uint32_t i = 0; i < t->layout_count; i++)
            u[k++] = (blob_use){
                ti, -1, i, t->layouts[i].offset, t->layouts[i].size, t->layouts[i].sha256, 0, 0};
        for (uint32_t i = 0; i < t->entry_count; i++)
            u[k++] = (blob_use){ti,
                                (int32_t)i,
                                i,
                                t->entries[i].code.offset,
                                t->entries[i].code.size,
                                t->entries[i].code.sha256,
                                0,
                                0};
    }
    /* Quadratic, but a bundle's references number in the hundreds at most. */
    for (uint32_t i = 0; i < n; i++) {
        u[i].first = (int32_t)i;
        for (uint32_t j = 0; j < i; j++)
            if (u[j].first == (int32_t)j && u[j].offset == u[i].offset && u[j].size == u[i].size) {
                u[i].first = (int32_t)j;
                break;
            }
        u[u[i].first].uses++;
    }
    *out = u;
    *count = n;
    return DGPB_OK;
}

/* "target/entry" or "target/layout/N" of a use. */
static void use_name(FILE *out, const dgpb_bundle *b, const blob_use *u)
{
    const dgpb_target_view *t = dgpb_bundle_target(b, u->target);
    esc_str(out, t->name);
    if (u->entry < 0) {
        fprintf(out, "/layout/%" PRIu32, u->index);
    } else {
        fputc('/', out);
        esc_str(out, t->entries[u->entry].name);
    }
}

static void bar_row(FILE *out, const char *bar_class, uint64_t bytes, uint64_t largest,
                    uint64_t file_size)
{
    char b1[32];
    fprintf(out,
            "<td class=\"n\">%s</td><td class=\"track\"><div class=\"bar %s\" "
            "style=\"width:%.3f%%\" title=\"%" PRIu64 " bytes, %.2f%% of the file\"></div></td>"
            "</tr>\n",
            num(bytes, b1), bar_class, percent(bytes, largest), bytes, percent(bytes, file_size));
}

/* The bytes of the data section that no blob holds: the options record at its start (docs/format.md,
   "The options record"), 0 when the bundle records no option. */
static uint64_t options_bytes(const dgpb_bundle *b, const blob_use *u, uint32_t n)
{
    uint64_t blobs = 0;
    for (uint32_t i = 0; i < n; i++)
        if (u[i].first == (int32_t)i)
            blobs += u[i].size;
    uint64_t data = dgpb_bundle_data_size(b);
    return data > blobs ? data - blobs : 0;
}

static void section_size(FILE *out, const dgpb_bundle *b, const blob_use *u, uint32_t n)
{
    uint64_t options = options_bytes(b, u, n);
    uint64_t size = dgpb_bundle_size(b), header = dgpb_bundle_header_size(b);
    uint32_t tcount = dgpb_bundle_target_count(b);
    uint64_t stored[8] = {0}; /* per target: bytes of the blobs it stored first (<= 6 targets) */
    uint64_t largest = header;
    for (uint32_t i = 0; i < n; i++) {
        if (u[i].first == (int32_t)i && u[i].target < 8)
            stored[u[i].target] += u[i].size;
        if (u[i].size > largest)
            largest = u[i].size;
    }
    char b1[32];
    fputs("<section id=\"size\">\n<h2>Size</h2>\n", out);
    fprintf(out,
            "<p>The file's %s bytes: the header (the tables) and, per target, the blobs it "
            "stores first. A blob that an earlier reference already stored is drawn hatched and "
            "costs nothing.</p>\n",
            num(size, b1));
    fputs("<div class=\"stack\" id=\"size-stack\">", out);
    fprintf(out,
            "<div class=\"seg header\" data-part=\"header\" data-bytes=\"%" PRIu64
            "\" style=\"width:%.3f%%\" title=\"header: %" PRIu64 " bytes\"></div>",
            header, percent(header, size), header);
    if (options)
        fprintf(out,
                "<div class=\"seg options\" data-part=\"options\" data-bytes=\"%" PRIu64
                "\" style=\"width:%.3f%%\" title=\"options record: %" PRIu64 " bytes\"></div>",
                options, percent(options, size), options);
    for (uint32_t ti = 0; ti < tcount && ti < 8; ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        fprintf(out, "<div class=\"seg t-%s\" data-part=\"target\" data-target=\"",
                dgpb_target_name(t->id));
        esc_str(out, t->name);
        fprintf(out, "\" data-bytes=\"%" PRIu64 "\" style=\"width:%.3f%%\" title=\"", stored[ti],
                percent(stored[ti], size));
        esc_str(out, t->name);
        fprintf(out, ": %" PRIu64 " bytes stored\"></div>", stored[ti]);
    }
    fputs("</div>\n<p class=\"legend\">", out);
    fprintf(out, "<span data-part=\"header\"><i class=\"swatch header\"></i>header %s</span>",
            num(header, b1));
    if (options)
        fprintf(out,
                "<span data-part=\"options\"><i class=\"swatch options\"></i>options record "
                "%s</span>",
                num(options, b1));
    for (uint32_t ti = 0; ti < tcount && ti < 8; ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        fputs("<span data-part=\"target\" data-target=\"", out);
        esc_str(out, t->name);
        fprintf(out, "\"><i class=\"swatch t-%s\"></i>", dgpb_target_name(t->id));
        esc_str(out, t->name);
        fprintf(out, " %s</span>", num(stored[ti], b1));
    }
    fputs("</p>\n<table class=\"bars\">\n<thead><tr><th>part</th><th class=\"n\">bytes</th>"
          "<th>size</th></tr></thead>\n<tbody>\n",
          out);
    fprintf(out, "<tr class=\"bar-row\" data-part=\"header\" data-bytes=\"%" PRIu64 "\">", header);
    fputs("<th>header (tables)</th>", out);
    bar_row(out, "header", header, largest, size);
    if (options) {
        fprintf(out, "<tr class=\"bar-row\" data-part=\"options\" data-bytes=\"%" PRIu64 "\">",
                options);
        fputs("<th>options record (project options)</th>", out);
        bar_row(out, "options", options, largest, size);
    }
    fputs("</tbody>\n", out);
    for (uint32_t ti = 0; ti < tcount; ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        fputs("<tbody data-target=\"", out);
        esc_str(out, t->name);
        fputs("\">\n<tr class=\"group\"><th colspan=\"3\">", out);
        esc_str(out, t->name);
        fputs(" (", out);
        esc_str(out, t->code_format);
        fprintf(out, "): %" PRIu32 " entr%s, %" PRIu32 " layout%s, %s bytes stored</th></tr>\n",
                t->entry_count, t->entry_count == 1 ? "y" : "ies", t->layout_count,
                t->layout_count == 1 ? "" : "s", num(ti < 8 ? stored[ti] : 0, b1));
        for (uint32_t i = 0; i < n; i++) {
            if (u[i].target != ti)
                continue;
            bool shared = u[i].first != (int32_t)i;
            if (u[i].entry < 0) {
                fprintf(out, "<tr class=\"bar-row\" data-part=\"layout\" data-target=\"");
                esc_str(out, t->name);
                fprintf(out, "\" data-layout=\"%" PRIu32 "\"", u[i].index);
            } else {
                fputs("<tr class=\"bar-row\" data-part=\"code\" data-target=\"", out);
                esc_str(out, t->name);
                fputs("\" data-entry=\"", out);
                esc_str(out, t->entries[u[i].entry].name);
                fputc('"', out);
            }
            fprintf(out, " data-bytes=\"%" PRIu32 "\"", u[i].size);
            if (shared) {
                fputs(" data-shared-with=\"", out);
                use_name(out, b, &u[u[i].first]);
                fputc('"', out);
            }
            fputs("><th>", out);
            if (u[i].entry < 0)
                fprintf(out, "layout %" PRIu32, u[i].index);
            else
                esc_str(out, t->entries[u[i].entry].name);
            if (shared) {
                fputs(" <span class=\"meta\">(shared with ", out);
                use_name(out, b, &u[u[i].first]);
                fputs(")</span>", out);
            }
            fputs("</th>", out);
            char bar_class[48];
            snprintf(bar_class, sizeof bar_class, "%s t-%s", u[i].entry < 0 ? "layout" : "code",
                     dgpb_target_name(t->id));
            bar_row(out, shared ? "shared" : bar_class, u[i].size, largest, size);
        }
        fputs("</tbody>\n", out);
    }
    fputs("</table>\n</section>\n", out);
}

static void section_capabilities(FILE *out, const dgpb_bundle *b)
{
    fputs("<section id=\"capabilities\">\n<h2>Capabilities</h2>\n"
          "<p>The device features each entry's code needs; a host checks them before it "
          "creates the entry's pipeline. A target's table has a column for each capability "
          "one of its entries needs.</p>\n",
          out);
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        uint64_t used = 0;
        for (uint32_t i = 0; i < t->entry_count; i++)
            used |= t->entries[i].capability_mask;
        fputs("<h3>", out);
        esc_str(out, t->name);
        fputs("</h3>\n<table class=\"capability-matrix\" data-target=\"", out);
        esc_str(out, t->name);
        fputs("\">\n<thead><tr><th>entry</th><th>stage</th>", out);
        for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
            if (used & (UINT64_C(1) << c))
                fprintf(out, "<th><code>%s</code></th>", dgpb_capability_name(c));
        fputs("</tr></thead>\n<tbody>\n", out);
        for (uint32_t i = 0; i < t->entry_count; i++) {
            const dgpb_entry_view *e = &t->entries[i];
            fputs("<tr class=\"capability-row\" data-target=\"", out);
            esc_str(out, t->name);
            fputs("\" data-entry=\"", out);
            esc_str(out, e->name);
            fputs("\" data-capabilities=\"", out);
            for (uint32_t k = 0; k < e->capability_count; k++) {
                if (k)
                    fputc(' ', out);
                esc_str(out, e->capabilities[k]);
            }
            fputs("\"><th>", out);
            esc_str(out, e->name);
            fputs("</th><td>", out);
            esc_str(out, e->stage);
            fputs("</td>", out);
            for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++) {
                if (!(used & (UINT64_C(1) << c)))
                    continue;
                bool has = dgpb_entry_has_capability(e, c);
                fprintf(out, "<td class=\"%s\" data-capability=\"%s\" title=\"%s\">%s</td>",
                        has ? "yes" : "no", dgpb_capability_name(c), dgpb_capability_name(c),
                        has ? "&#10003;" : "&middot;");
            }
            fputs("</tr>\n", out);
        }
        fputs("</tbody>\n</table>\n", out);
    }
    fputs("</section>\n", out);
}

static void number_cell(FILE *out, uint32_t v)
{
    if (v == 0xFFFFFFFFu)
        fputs("<td class=\"n\" title=\"4294967295\">0xFFFFFFFF</td>", out);
    else
        fprintf(out, "<td class=\"n\">%" PRIu32 "</td>", v);
}

/* A space or binding cell: the vocabulary's name of a reserved number (its number in the
   title), as every listing spells it; else the number. */
static void reserved_cell(FILE *out, uint32_t v, const char *name)
{
    if (name)
        fprintf(out, "<td class=\"n\" title=\"%" PRIu32 "\">%s</td>", v, name);
    else
        number_cell(out, v);
}

static void entry_section(FILE *out, const dgpb_target_view *t, uint32_t ti, uint32_t i)
{
    const dgpb_entry_view *e = &t->entries[i];
    char hex[65], b1[32];
    dgpb_sha256_hex(e->code.sha256, hex);
    bool wgsl = code_ops_of_target((dgpb_target_id)t->id)->webgpu;
    fprintf(out, "<section class=\"entry\" id=\"entry-%" PRIu32 "-%" PRIu32 "\" data-target=\"", ti,
            i);
    esc_str(out, t->name);
    fputs("\" data-entry=\"", out);
    esc_str(out, e->name);
    fputs("\" data-stage=\"", out);
    esc_str(out, e->stage);
    fprintf(out,
            "\" data-layout=\"%" PRIu32 "\" data-thread-group-size=\"%" PRIu32 ",%" PRIu32
            ",%" PRIu32 "\" data-code-offset=\"%" PRIu32 "\" data-code-size=\"%" PRIu32
            "\" data-code-sha256=\"%s\" data-param-count=\"%" PRIu32 "\">\n<h3>",
            e->layout, e->thread_group_size[0], e->thread_group_size[1], e->thread_group_size[2],
            e->code.offset, e->code.size, hex, e->param_count);
    esc_str(out, t->name);
    fputs(" / ", out);
    esc_str(out, e->name);
    fputs("</h3>\n<p class=\"meta\">", out);
    esc_str(out, e->stage);
    if (dgpb_stage_has_thread_group(e->stage_id))
        fprintf(out, " [%" PRIu32 ", %" PRIu32 ", %" PRIu32 "]", e->thread_group_size[0],
                e->thread_group_size[1], e->thread_group_size[2]);
    if (t->layout_count) /* with none, no layout to point at (as dgpb-dump's listing) */
        fprintf(out, " &middot; layout %" PRIu32, e->layout);
    fprintf(out,
            " &middot; code <span title=\"%" PRIu32 " bytes\">%s bytes</span> at %" PRIu32
            " &middot; sha256 <code>%.16s</code>",
            e->code.size, num(e->code.size, b1), e->code.offset, hex);
    fputs("</p>\n", out);
    if (!e->param_count) {
        fputs("<p>No parameters.</p>\n</section>\n", out);
        return;
    }
    fputs("<table class=\"params\">\n<thead><tr><th class=\"n\">index</th><th>name</th>"
          "<th>kind</th><th>flags</th><th class=\"n\">space</th><th class=\"n\">binding</th>"
          "<th class=\"n\">offset or shape</th><th class=\"n\">size</th><th>webgpu_layout</th></tr>"
          "</thead>\n<tbody>\n",
          out);
    for (uint32_t k = 0; k < e->param_count; k++) {
        const dgpb_param_view *p = &e->params[k];
        char fl[48];
        flags_text(p->flags, fl, sizeof fl);
        const char *kind = dgpb_kind_name(p->kind);
        fprintf(out, "<tr class=\"param\" data-index=\"%" PRIu32 "\" data-name=\"", k);
        esc_str(out, p->name);
        /* A shaped row's offset is its shape, spelled as the JSON view spells it. */
        char offset[112];
        if (dgpb_kind_has_shape(p->kind)) {
            char shape[96];
            snprintf(offset, sizeof offset, "data-shape=\"%s\"",
                     dgpb_shape_text(p->offset, shape, sizeof shape));
        } else {
            snprintf(offset, sizeof offset, "data-offset=\"%" PRIu32 "\"", p->offset);
        }
        fprintf(out,
                "\" data-kind=\"%s\" data-flags=\"%s\" data-space=\"%" PRIu32
                "\" data-binding=\"%" PRIu32 "\" %s data-size=\"%" PRIu32
                "\" data-webgpu-layout=\"%" PRIu32 "\">",
                kind, fl, p->space, p->binding, offset, p->size, p->webgpu_layout);
        fprintf(out, "<td class=\"n\">%" PRIu32 "</td><td><code>", k);
        esc_str(out, p->name);
        fprintf(out, "</code></td><td>%s</td><td>%s</td>", kind, fl[0] ? fl : "&ndash;");
        reserved_cell(out, p->space, dgpb_space_name(p->space));
        reserved_cell(out, p->binding, dgpb_binding_name(p->binding));
        if (dgpb_kind_has_shape(p->kind)) { /* its shape, spelled (docs/format.md, "Shapes") */
            char shape[96];
            fprintf(out, "<td>%s</td>", dgpb_shape_text(p->offset, shape, sizeof shape));
        } else {
            number_cell(out, p->offset);
        }
        number_cell(out, p->size);
        char id_text[128];
        if (wgsl && p->webgpu_layout)
            fprintf(out, "<td>%" PRIu32 " <span class=\"meta\">%s</span></td>", p->webgpu_layout,
                    dgpb_webgpu_layout_text(p->webgpu_layout, id_text, sizeof id_text));
        else
            fprintf(out, "<td>%" PRIu32 "</td>", p->webgpu_layout);
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n</section>\n", out);
}

static void section_entries(FILE *out, const dgpb_bundle *b)
{
    fputs("<section id=\"entries\">\n<h2>Entries and parameters</h2>\n"
          "<p>Each entry's rows in bind order: a row's index is what a host's bind command "
          "carries. The space <code>launch</code> is the data handed over with the dispatch "
          "(push constants, a kernel's parameters), <code>pipeline_constant</code> the "
          "constants set when the pipeline is created; the binding <code>inline</code> a "
          "value stored directly in the global parameter block (ptx).</p>\n",
          out);
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        for (uint32_t i = 0; i < t->entry_count; i++)
            entry_section(out, t, ti, i);
    }
    fputs("</section>\n", out);
}

static void section_dedup(FILE *out, const dgpb_bundle *b, const blob_use *u, uint32_t n)
{
    /* The blobs' bytes: the data section less its options record. */
    uint64_t referenced = 0, stored = dgpb_bundle_data_size(b) - options_bytes(b, u, n);
    uint32_t distinct = 0, shared = 0;
    for (uint32_t i = 0; i < n; i++) {
        referenced += u[i].size;
        if (u[i].first == (int32_t)i) {
            distinct++;
            shared += u[i].uses > 1;
        }
    }
    uint64_t saved = referenced > stored ? referenced - stored : 0;
    uint64_t largest = referenced > stored ? referenced : stored;
    char b1[32];
    fprintf(out,
            "<section id=\"dedup\" data-references=\"%" PRIu32 "\" data-referenced-bytes=\"%" PRIu64
            "\" data-distinct-blobs=\"%" PRIu32 "\" data-stored-bytes=\"%" PRIu64
            "\" data-saved-bytes=\"%" PRIu64 "\">\n<h2>Deduplication</h2>\n",
            n, referenced, distinct, stored, saved);
    fputs("<p>The bundle stores each distinct blob once. Were every entry to store its own "
          "code (and every target its own layouts), the blobs would take:</p>\n"
          "<table class=\"bars\">\n<thead><tr><th>blobs</th><th class=\"n\">bytes</th>"
          "<th>size</th></tr></thead>\n<tbody>\n",
          out);
    fprintf(out,
            "<tr class=\"bar-row\" data-part=\"referenced\" data-bytes=\"%" PRIu64 "\">"
            "<th>one per reference (%" PRIu32 ")</th>",
            referenced, n);
    bar_row(out, "shared", referenced, largest, dgpb_bundle_size(b));
    fprintf(out,
            "<tr class=\"bar-row\" data-part=\"stored\" data-bytes=\"%" PRIu64 "\">"
            "<th>stored: distinct blobs (%" PRIu32 ")</th>",
            stored, distinct);
    bar_row(out, "stored", stored, largest, dgpb_bundle_size(b));
    fputs("</tbody>\n</table>\n", out);
    fprintf(out, "<p><strong>Saved: <span id=\"dedup-saved\" title=\"%" PRIu64 " bytes\">", saved);
    fprintf(out, "%s bytes</span></strong> (%.1f%% of the referenced bytes).</p>\n", num(saved, b1),
            percent(saved, referenced));
    if (!shared) {
        fputs("<p>No blob is referenced twice.</p>\n</section>\n", out);
        return;
    }
    fputs("<table class=\"shared-blobs\">\n<thead><tr><th>blob</th><th class=\"n\">bytes</th>"
          "<th>referenced by</th><th class=\"n\">saved</th></tr></thead>\n<tbody>\n",
          out);
    for (uint32_t i = 0; i < n; i++) {
        if (u[i].first != (int32_t)i || u[i].uses < 2)
            continue;
        char hex[65], b2[32];
        dgpb_sha256_hex(u[i].sha256, hex);
        uint64_t s = (uint64_t)u[i].size * (u[i].uses - 1);
        fprintf(out,
                "<tr class=\"shared-blob\" data-bytes=\"%" PRIu32 "\" data-uses=\"%" PRIu32
                "\" data-saved-bytes=\"%" PRIu64 "\"><td><code>%.16s</code></td>"
                "<td class=\"n\">%s</td><td>",
                u[i].size, u[i].uses, s, hex, num(u[i].size, b1));
        for (uint32_t j = i, k = 0; j < n; j++) {
            if (u[j].first != (int32_t)i)
                continue;
            if (k++)
                fputs(", ", out);
            fputs("<code>", out);
            use_name(out, b, &u[j]);
            fputs("</code>", out);
        }
        fprintf(out, "</td><td class=\"n\">%s</td></tr>\n", num(s, b2));
    }
    fputs("</tbody>\n</table>\n</section>\n", out);
}

static const char *diff_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* One change, as its line of `dgpb-dump --diff` says it. */
static void diff_change(FILE *out, const cJSON *c)
{
    bool breaking = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "breaking"));
    fputs("<li class=\"diff-change\" data-what=\"", out);
    esc(out, diff_string(c, "what"));
    fprintf(out, "\" data-breaking=\"%s\">", breaking ? "true" : "false");
    if (breaking)
        fputs("<span class=\"breaking\">breaking</span> ", out);
    fputs("<span class=\"change-text\">", out);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        dump_diff_change(mem, c);
        if (fclose(mem) == 0)
            esc_n(out, text, len);
    }
    free(text);
    fputs("</span></li>\n", out);
}

static void section_diff(FILE *out, const cJSON *diff, const char *old_path)
{
    bool equivalent = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(diff, "equivalent"));
    bool breaking = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(diff, "breaking"));
    fprintf(out,
            "<section id=\"diff\" data-equivalent=\"%s\" data-breaking=\"%s\">\n"
            "<h2>Changes</h2>\n<p>From <code>",
            equivalent ? "true" : "false", breaking ? "true" : "false");
    esc(out, old_path ? old_path : "");
    fprintf(out, "</code>: %s.</p>\n",
            equivalent ? "equivalent, nothing a host sees changed"
            : breaking ? "<span class=\"breaking\">breaking changes</span>"
                       : "changes that break no binding");
    fputs("<p class=\"diff-summary\">", out);
    dump_diff_summary(out, diff);
    fputs("</p>\n", out);
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(diff, "targets"))
    {
        const char *change = diff_string(t, "change");
        fputs("<h3 class=\"diff-target change-", out);
        esc(out, change);
        fputs("\" data-target=\"", out);
        esc(out, diff_string(t, "name"));
        fputs("\" data-change=\"", out);
        esc(out, change);
        fputs("\">", out);
        esc(out, diff_string(t, "name"));
        fputs(" <span class=\"meta\">", out);
        esc(out, change);
        fputs("</span></h3>\n<ul>\n", out);
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(t, "entries"))
        {
            const char *ec = diff_string(e, "change");
            bool eb = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "breaking"));
            fputs("<li class=\"diff-entry change-", out);
            esc(out, ec);
            fputs("\" data-entry=\"", out);
            esc(out, diff_string(e, "name"));
            fputs("\" data-change=\"", out);
            esc(out, ec);
            fprintf(out, "\" data-breaking=\"%s\"><strong>", eb ? "true" : "false");
            esc(out, diff_string(e, "name"));
            fputs("</strong> ", out);
            esc(out, ec);
            if (eb)
                fputs(" <span class=\"breaking\">breaking</span>", out);
            const cJSON *changes = cJSON_GetObjectItemCaseSensitive(e, "changes");
            if (cJSON_GetArraySize(changes) > 0) {
                fputs("\n<ul>\n", out);
                const cJSON *c;
                cJSON_ArrayForEach(c, changes) diff_change(out, c);
                fputs("</ul>\n", out);
            }
            fputs("</li>\n", out);
        }
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "changes")) diff_change(out, c);
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "layouts")) diff_change(out, c);
        fputs("</ul>\n", out);
    }
    fputs("</section>\n", out);
}

/* The entries of a bundle by name, each once whatever the targets that carry it. */
/* The project options the bundle was built with, those that differ from the default
   (docs/format.md, "Options record"); nothing when all are the defaults. */
static void section_options(FILE *out, const dgpb_bundle *b)
{
    const char *sep = "<p class=\"options\">Built with ";
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++) {
        dgpb_str v = dgpb_bundle_option(b, i);
        if (!v.len)
            continue;
        fprintf(out, "%s<span data-option=\"%s\">%s <code>", sep, dgpb_option_name(i),
                dgpb_option_name(i));
        esc_str(out, v);
        fputs("</code></span>", out);
        sep = ", ";
    }
    if (*sep == ',')
        fputs("</p>\n", out);
}

static uint32_t distinct_entries(const dgpb_bundle *b)
{
    uint32_t n = 0;
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        for (uint32_t i = 0; i < t->entry_count; i++) {
            bool seen = false;
            for (uint32_t tj = 0; tj < ti && !seen; tj++) {
                const dgpb_target_view *o = dgpb_bundle_target(b, tj);
                for (uint32_t k = 0; k < o->entry_count && !seen; k++)
                    seen = o->entries[k].name.len == t->entries[i].name.len &&
                           !memcmp(o->entries[k].name.ptr, t->entries[i].name.ptr,
                                   t->entries[i].name.len);
            }
            n += !seen;
        }
    }
    return n;
}

int dump_report(FILE *out, const dgpb_bundle *b, const char *path, const cJSON *diff,
                const char *old_path, dgpb_diag *diag)
{
    blob_use *u = NULL;
    uint32_t n = 0;
    int rc = collect_uses(b, &u, &n, diag);
    if (rc)
        return rc;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    uint32_t entries = distinct_entries(b), codes = 0; /* an entry has a code blob per target */
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++)
        codes += dgpb_bundle_target(b, ti)->entry_count;
    char b1[32], b2[32], b3[32];

    fputs(page_head, out);
    fputs("<title>", out);
    esc(out, base);
    fputs(" &ndash; dgpb bundle report</title>\n", out);
    write_style(out);
    fputs("</head>\n<body>\n<main id=\"report\" data-file=\"", out);
    esc(out, path);
    fprintf(out,
            "\" data-version=\"%" PRIu32 "\" data-size=\"%zu\" data-header-size=\"%" PRIu32
            "\" data-data-size=\"%" PRIu32 "\" data-target-count=\"%" PRIu32
            "\" data-entry-count=\"%" PRIu32 "\" data-code-count=\"%" PRIu32 "\">\n<h1>",
            dgpb_bundle_version(b), dgpb_bundle_size(b), dgpb_bundle_header_size(b),
            dgpb_bundle_data_size(b), dgpb_bundle_target_count(b), entries, codes);
    esc(out, base);
    fputs("</h1>\n<p class=\"meta\"><code>", out);
    esc(out, path);
    fprintf(out,
            "</code>: DGPB v%" PRIu32 ", %s bytes (header %s, data %s), %" PRIu32
            " entr%s on %" PRIu32 " target%s, %" PRIu32 " code blob%s</p>\n",
            dgpb_bundle_version(b), num(dgpb_bundle_size(b), b1),
            num(dgpb_bundle_header_size(b), b2), num(dgpb_bundle_data_size(b), b3), entries,
            entries == 1 ? "y" : "ies", dgpb_bundle_target_count(b),
            dgpb_bundle_target_count(b) == 1 ? "" : "s", codes, codes == 1 ? "" : "s");
    section_options(out, b);
    fputs("<nav>", out);
    if (diff)
        fputs("<a href=\"#diff\">Changes</a>", out);
    fputs("<a href=\"#size\">Size</a><a href=\"#capabilities\">Capabilities</a>"
          "<a href=\"#entries\">Entries and parameters</a><a href=\"#dedup\">Deduplication</a>",
          out);
    fputs("</nav>\n", out);
    if (diff)
        section_diff(out, diff, old_path);
    section_size(out, b, u, n);
    section_capabilities(out, b);
    section_entries(out, b);
    section_dedup(out, b, u, n);
    fputs("</main>\n</body>\n</html>\n", out);
    free(u);
    return DGPB_OK;
}
