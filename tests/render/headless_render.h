// The golden-image tests' render: the one harness in tests/common.
#pragma once

#include "common/render_harness.h"
