// OpenDDL parser: implementation in progress.
#include "loaders/opengex/openddl/openddl.h"
