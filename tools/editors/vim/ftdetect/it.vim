" IT programs, PCubeS machine descriptions and mapping files (itc).
autocmd BufRead,BufNewFile *.it set filetype=it
autocmd BufRead,BufNewFile *.pcubes,*.ml set filetype=pcubes
autocmd BufRead,BufNewFile *.map set filetype=itmap
