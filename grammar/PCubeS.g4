// PCubeS machine description files (it-language.md §12.2), plus itc's backward-compatible
// extensions: `{ key: value, ... }` level properties and a `Processors:` numbering line.
// Only syntax lives here; pcubes/machine_parser.cpp builds the model and checks every rule.
grammar PCubeS;

machineFile : item* EOF ;
item        : spaceLine | processorsLine ;

// Space 2<unit><segment>: Node (4) { memory: 64GiB }
spaceLine   : SPACE number=INTEGER attribute* ':' levelName '(' count=INTEGER ')' properties? ;
attribute   : '<' word '>' ;
levelName   : word ;
properties  : '{' ( property ( ',' property )* ','? )? '}' ;
property    : key=word ':' valueWord+ ;
valueWord   : word ;

// Processors: 0-3, 8, 9
processorsLine : PROCESSORS ':' processorWord+ ( ',' processorWord+ )* ;
processorWord  : word ;

word        : NAME | INTEGER | SPACE | PROCESSORS ;

SPACE       : 'Space' ;
PROCESSORS  : 'Processors' ;
INTEGER     : [0-9]+ ;
LT          : '<' ;
GT          : '>' ;
COLON       : ':' ;
LPAREN      : '(' ;
RPAREN      : ')' ;
LBRACE      : '{' ;
RBRACE      : '}' ;
COMMA       : ',' ;
COMMENT     : '//' ~[\r\n]* -> skip ;
WS          : [ \t\r\n]+ -> skip ;
NAME        : ( NAME_CHAR | '/' NAME_CHAR )+ ;
ERROR_CHAR  : . ;
fragment NAME_CHAR : ~[ \t\r\n():<>{},/] ;
