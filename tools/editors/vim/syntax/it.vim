" Vim syntax for IT programs (itc). Copy tools/editors/vim into ~/.vim (or add it to 'runtimepath').
if exists("b:current_syntax")
  finish
endif

syn keyword itSection      Program Task Define Environment Initialize Stages Computation Partition Function Arguments Results Compute Class
syn keyword itFlow         Space Repeat Where If Epoch foreach Root
syn keyword itStatement    do for while in sequence step if else return execute new reduce and or of at current
syn keyword itType         Integer Real Character Boolean String Range List Array TaskEnvironment Reduction
syn match   itType         "\<\(single\|double\)-precision\>"
syn match   itType         "\<[1-9]d\>"
syn keyword itPartition    block_size block_count stride block_stride replicated padding divides partitions partition
syn match   itPartition    "\<\(un-partitioned\|sub-partitions\=\|Sub-partition\|link-or-create\)\>"
syn keyword itMode         link create dynamic ordered unordered increasing decreasing
syn keyword itBuiltin      lpuId bind_input bind_output load store get_cursor value advance insert_at remove_at set_capacity
syn keyword itBoolean      true false TRUE FALSE
syn match   itNumber       "\<\d\+\(\.\d*\)\=\([eE][-+]\=\d\+\)\=\>"
syn region  itString       start=+"+ skip=+\\"+ end=+"+
syn match   itChar         "'[^']'"
syn match   itComment      "//.*$"
syn region  itComment      start="/\*" end="\*/"
syn region  itNative       matchgroup=itSection start="\${" end="}\$"
syn match   itAnnotation   "@\(Extern\|Language\|Includes\|Libraries\)\>"

hi def link itSection    Structure
hi def link itFlow       Conditional
hi def link itStatement  Statement
hi def link itType       Type
hi def link itPartition  Function
hi def link itMode       StorageClass
hi def link itBuiltin    Identifier
hi def link itBoolean    Boolean
hi def link itNumber     Number
hi def link itString     String
hi def link itChar       Character
hi def link itComment    Comment
hi def link itNative     Special
hi def link itAnnotation PreProc

let b:current_syntax = "it"
