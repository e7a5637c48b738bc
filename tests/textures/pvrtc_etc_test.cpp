#include <gtest/gtest.h>

#include "loaders/textures/decode.h"

TEST(Placeholder, pvrtc_etc_test) { SUCCEED(); }
