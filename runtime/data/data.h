// libitrt's data side in one header: parts and their index arithmetic, views, transfer
// schedules, ghost exchange, and data files (sequential and MPI-IO). runtime/task includes it;
// generated programs reach it through runtime/task/program.h, their one header.
#pragma once

#include "runtime/data/data_error.h"
#include "runtime/data/dim_range.h"
#include "runtime/data/index_set.h"
#include "runtime/data/io/data_file.h"
#include "runtime/data/io/element_codec.h"
#include "runtime/data/io/file_layout.h"
#include "runtime/data/io/mpi_array_io.h"
#include "runtime/data/part.h"
#include "runtime/data/partition_function.h"
#include "runtime/data/space_config.h"
#include "runtime/data/transfer_schedule.h"
