// test_headers.cpp - the public headers compile as C++ (and the library links from C++).
#include "dgpb/dgpb.h"

int dgpb_headers_compile_as_cxx();
int dgpb_headers_compile_as_cxx()
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    return dgpb_result_class(DGPB_ERR_CORRUPT_HASH) == DGPB_ERR_CORRUPT ? 0 : 1;
}
