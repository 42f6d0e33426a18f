" Vim syntax for IT mapping files (.map): task names and `Space X: PPS` lines.
if exists("b:current_syntax")
  finish
endif
syn region  itmapTask     start=+"+ end=+"+
syn keyword itmapKeyword  Space Root
syn match   itmapNumber   "\<\d\+\>"
syn match   itmapComment  "//.*$"
hi def link itmapTask     String
hi def link itmapKeyword  Keyword
hi def link itmapNumber   Number
hi def link itmapComment  Comment
let b:current_syntax = "itmap"
