/*
 * shim_com.h - the COM objects of the replay shim (internal): Slang's
 * IGlobalSession, ISession, IComponentType and ISlangBlob, laid out as
 * Slang's C++ interfaces are (a pointer to a table of functions, `this`
 * first), with the slots an RHI calls answered and every other slot
 * stopping the process with its name.
 *
 * The slot numbers are the order of declaration in Slang's public slang.h
 * (after ISlangUnknown's queryInterface, addRef, release), checked against
 * Slang 2026.16 and slang-rhi's use of them (docs/layout.md, "The replay
 * shim").
 */
#ifndef DGPB_SHIM_COM_H
#define DGPB_SHIM_COM_H

#define shim_component_create dgpb__shim_component_create
#define shim_global_session dgpb__shim_global_session

#include <stdint.h>

#include "shim/shim.h"

/* IGlobalSession (slang.h). */
#define SHIM_GLOBAL_SLOT_CREATE_SESSION 3
#define SHIM_GLOBAL_SLOT_FIND_PROFILE 4
#define SHIM_GLOBAL_SLOT_GET_BUILD_TAG 8
#define SHIM_GLOBAL_SLOT_FIND_CAPABILITY 22
#define SHIM_GLOBAL_SLOT_GET_COMPILER_ELAPSED_TIME 25
#define SHIM_GLOBAL_SLOTS 33
/* ISession. */
#define SHIM_SESSION_SLOT_GET_GLOBAL_SESSION 3
#define SHIM_SESSION_SLOTS 24
/* IComponentType. */
#define SHIM_COMPONENT_SLOT_GET_SESSION 3
#define SHIM_COMPONENT_SLOT_GET_LAYOUT 4
#define SHIM_COMPONENT_SLOT_GET_SPECIALIZATION_PARAM_COUNT 5
#define SHIM_COMPONENT_SLOT_GET_ENTRY_POINT_CODE 6
#define SHIM_COMPONENT_SLOT_GET_ENTRY_POINT_HASH 8
#define SHIM_COMPONENT_SLOT_LINK 10
#define SHIM_COMPONENT_SLOTS 17
/* ISlangBlob. */
#define SHIM_BLOB_SLOT_GET_BUFFER_POINTER 3
#define SHIM_BLOB_SLOT_GET_BUFFER_SIZE 4
#define SHIM_BLOB_SLOTS 5

/* A new IComponentType owning `program` (freed with its last release()); NULL: no memory. */
void *shim_component_create(shim_program *program);

/* Slang's exported functions that make a global session: the shim's (any description). */
int32_t slang_createGlobalSession(int64_t api_version, void **out);
int32_t slang_createGlobalSession2(const void *desc, void **out);

/* The process's one global session (static; addRef/release count nothing). */
void *shim_global_session(void);

#endif
