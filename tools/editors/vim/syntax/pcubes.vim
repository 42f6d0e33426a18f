" Vim syntax for PCubeS machine descriptions (.pcubes, .ml) written by `itc machine` or by hand.
if exists("b:current_syntax")
  finish
endif
syn keyword pcubesKeyword Space Processors
syn match   pcubesTag     "<[a-z-]\+>"
syn match   pcubesNumber  "\<\d\+\([KMGT]i\=B\)\=\>"
syn match   pcubesComment "//.*$"
syn match   pcubesComment "#.*$"
hi def link pcubesKeyword Keyword
hi def link pcubesTag     Type
hi def link pcubesNumber  Number
hi def link pcubesComment Comment
let b:current_syntax = "pcubes"
