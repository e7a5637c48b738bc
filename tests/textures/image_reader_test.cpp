#include <gtest/gtest.h>

#include "loaders/textures/decode.h"

TEST(Placeholder, image_reader_test) { SUCCEED(); }
