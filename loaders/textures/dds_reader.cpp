// Stub: being written.
#include "loaders/textures/image_reader.h"
