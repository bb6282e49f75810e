#pragma once
// The window's what-if clock is the live layer's (core/live/what_if_clock.h): one for every cell.

#include "core/live/what_if_clock.h"
