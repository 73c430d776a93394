// test_headers.cpp - every installed (public) header compiles as C++, alone and together,
// and the library links from C++.
#include "dgpb/alloc.h"
#include "dgpb/build.h"
#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/dgpb.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/layout.h"
#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"
#include "dgpb/sha256.h"
#include "dgpb/slang_shim.h"

int dgpb_headers_compile_as_cxx();
int dgpb_headers_compile_as_cxx()
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    return dgpb_result_class(DGPB_ERR_CORRUPT_HASH) == DGPB_ERR_CORRUPT ? 0 : 1;
}
