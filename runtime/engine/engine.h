// The channel engine's headers in one: what runtime/task (and tests of the engine) include.
// Generated programs include runtime/task/program.h, which includes this. Must only include
// other headers; no declarations of its own.
#pragma once

#include "runtime/engine/args.h"
#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"
#include "runtime/engine/packet.h"
#include "runtime/engine/reduction.h"
#include "runtime/engine/runtime.h"
#include "runtime/engine/trace.h"
#include "runtime/engine/tuple.h"
#include "runtime/engine/vdp.h"
#include "runtime/engine/vsa.h"
