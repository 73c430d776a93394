/*
 * header_host.c - a host that binds fixtures/header/particles_pass.slang from
 * its C header alone (tests/build_header.sh, case host; docs/build.md, "The C
 * header"): the structs it fills are the header's, sized with sizeof, and
 * where each row binds is the header's macros.
 *
 *   header_host fill DIR   writes DIR/frame.bin (the FrameBlock cbuffer: gravity,
 *                          dt and count set) and DIR/particles.bin (4 Particles),
 *                          sizeof bytes each; prints each row's place as the header
 *                          gives it: "TARGET ENTRY INDEX SPACE BINDING"
 *   header_host check DIR  reads DIR/out.bin (the particles after dgpb-run ran
 *                          'simulate' over them): the first `count` moved by one
 *                          step of dt, the last as it was
 *
 * Built with -DHOST_TARGET=spirv (the default: dgpb-run on Vulkan) or ptx
 * (dgpb-run --api cuda): the structs of that target, whose layouts differ
 * (std140 and std430 on spirv, CUDA's on ptx). Every number is exact in
 * binary, so the check compares values exactly: a field the header put at
 * another offset than the code reads it at shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "particles_pass.h"

#ifndef HOST_TARGET
#define HOST_TARGET spirv
#endif
#define STRUCT_OF(target, name) particles_pass_##target##_##name
#define HOST_STRUCT(target, name) STRUCT_OF(target, name)

/* The block's layout is the same on every target (its struct is named by the block alone); the
   particles' differs between spirv and ptx (named by the target). */
typedef particles_pass_FrameBlock frame_block;
typedef HOST_STRUCT(HOST_TARGET, Particle) particle;

enum { PARTICLES = 4, MOVED = 3 };

static const float dt = 0.5f, gravity[3] = {0.0f, -10.0f, 0.0f};

/* The particles before the run. */
static void initial(particle *p)
{
    memset(p, 0, sizeof *p * PARTICLES);
    for (int i = 0; i < PARTICLES; i++) {
        p[i].pos[0] = (float)i;
        p[i].pos[1] = 2.0f * (float)i;
        p[i].pos[2] = -1.0f;
        p[i].vel[0] = 0.5f;
        p[i].vel[1] = 4.0f + (float)i;
        p[i].vel[2] = -2.0f;
        p[i].color[0] = 1.0f;
        p[i].color[1] = 0.25f;
        p[i].color[2] = 0.125f;
        p[i].color[3] = 1.0f;
        p[i].life = 1.0f + 0.5f * (float)i;
    }
}

static int write_file(const char *dir, const char *name, const void *bytes, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size || fclose(f)) {
        fprintf(stderr, "header_host: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

#define PLACE(target, entry, row)                                                                  \
    printf("%s %s %d %u %u\n", #target, #entry, (int)particles_pass_##entry##_##row,               \
           (unsigned)particles_pass_##target##_##entry##_##row##_space,                            \
           (unsigned)particles_pass_##target##_##entry##_##row##_binding)
#define BLOCK_PLACES(target, entry)                                                                \
    PLACE(target, entry, FrameBlock);                                                              \
    PLACE(target, entry, viewProj);                                                                \
    PLACE(target, entry, gravity);                                                                 \
    PLACE(target, entry, dt);                                                                      \
    PLACE(target, entry, viewport);                                                                \
    PLACE(target, entry, count)

static int fill(const char *dir)
{
    frame_block frame;
    memset(&frame, 0, sizeof frame);
    for (int i = 0; i < 4; i++)
        frame.viewProj[i][i] = 1.0f;
    memcpy(frame.gravity, gravity, sizeof frame.gravity);
    frame.dt = dt;
    frame.viewport[0] = 640.0f;
    frame.viewport[1] = 480.0f;
    frame.count = MOVED;
    particle p[PARTICLES];
    initial(p);
    if (write_file(dir, "frame.bin", &frame, sizeof frame) ||
        write_file(dir, "particles.bin", p, sizeof p))
        return 1;
    BLOCK_PLACES(ptx, simulate);
    PLACE(ptx, simulate, particles);
    BLOCK_PLACES(spirv, simulate);
    PLACE(spirv, simulate, particles);
    BLOCK_PLACES(wgsl, simulate);
    PLACE(wgsl, simulate, particles);
    BLOCK_PLACES(spirv, drawVertex);
    PLACE(spirv, drawVertex, drawn);
    BLOCK_PLACES(wgsl, drawVertex);
    PLACE(wgsl, drawVertex, drawn);
    BLOCK_PLACES(spirv, drawFragment);
    BLOCK_PLACES(wgsl, drawFragment);
    return 0;
}

static int differs(int i, const char *what, float got, float want)
{
    if (got == want)
        return 0;
    fprintf(stderr, "header_host: particle %d: %s is %g, not %g\n", i, what, (double)got,
            (double)want);
    return 1;
}

static int check(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    particle got[PARTICLES + 1], want[PARTICLES];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(got, 1, sizeof got, f) : 0;
    if (f)
        fclose(f);
    if (n != sizeof want) {
        fprintf(stderr, "header_host: %s has %zu bytes, not %zu (%d particles of %zu)\n", path, n,
                sizeof want, PARTICLES, sizeof(particle));
        return 1;
    }
    initial(want);
    for (int i = 0; i < MOVED; i++) { /* the shader's step, in the same order */
        for (int k = 0; k < 3; k++) {
            want[i].vel[k] += gravity[k] * dt;
            want[i].pos[k] += want[i].vel[k] * dt;
        }
        want[i].life -= dt;
        want[i].color[3] = want[i].life < 0 ? 0 : want[i].life > 1 ? 1 : want[i].life;
    }
    int bad = 0;
    for (int i = 0; i < PARTICLES; i++) {
        for (int k = 0; k < 3; k++) {
            bad |= differs(i, "pos", got[i].pos[k], want[i].pos[k]);
            bad |= differs(i, "vel", got[i].vel[k], want[i].vel[k]);
        }
        for (int k = 0; k < 4; k++)
            bad |= differs(i, "color", got[i].color[k], want[i].color[k]);
        bad |= differs(i, "life", got[i].life, want[i].life);
    }
    if (!bad)
        printf("header_host: %d particles moved, %d kept, as the header's structs say\n", MOVED,
               PARTICLES - MOVED);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "fill"))
        return fill(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "check"))
        return check(argv[2]);
    fprintf(stderr, "usage: header_host fill|check DIR\n");
    return 2;
}
