// tests/unit_test.h — GoogleTest when the build found it (WB_HAVE_GTEST), else tests/mini_test.h,
// which provides the same macros; either way every unit test builds and runs.
#pragma once
#ifdef WB_HAVE_GTEST
#include <gtest/gtest.h>
#else
#include "mini_test.h"
#endif
