// Mapping files (it-language.md §11.1): for each task, each LPS (and optionally Root) to a PPS
// number. `//` comments; newlines are whitespace. pcubes/mapping_parser.cpp builds the data and
// pcubes/mapping_validator.cpp checks it against the program and the machine model.
grammar Mapping;

mappingFile : taskMapping* EOF ;
taskMapping : STRING '{' lpsMapping* '}' ;
lpsMapping  : SPACE space=spaceName ':' pps=INTEGER ;
spaceName   : ID | INTEGER ;

SPACE       : 'Space' ;
STRING      : '"' ~["\r\n]* '"' ;
UNTERMINATED_STRING : '"' ~["\r\n]* ;
INTEGER     : [0-9]+ ;
ID          : [A-Za-z_] [A-Za-z0-9_-]* ;
LBRACE      : '{' ;
RBRACE      : '}' ;
COLON       : ':' ;
COMMENT     : '//' ~[\r\n]* -> skip ;
WS          : [ \t\r\n]+ -> skip ;
ERROR_CHAR  : . ;
