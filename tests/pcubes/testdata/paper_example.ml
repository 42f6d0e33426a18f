// RUN: itc machine --check %s
// RUN: itc machine --print %s
// The example of it-language.md §12.3, in the old format and with the old `.ml` extension.
// a fictitious machine: 8 servers, each with 2 sockets of 4 L3 domains of 6 cores
Space 5: Rack (1)
Space 4<unit><segment>: Server (8)        // separate machines; 256 GB each
Space 3: Socket (2)                        // NUMA memory per socket
Space 2: L3-Domain (4)                     // 8 MB shared L3
Space 1<core>: Core (6)                    // 32 KB L1; one FP pipeline each
