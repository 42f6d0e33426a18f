// The IT language (docs: /work/shared/docs/it-language.md, "IT Grammar – Version 1" + [Ext]).
// Parser rules accept a little more than the language where that lets frontend/ report a precise
// diagnostic (identifier casing, task section order, partition arguments, loop headers); the
// AST builder (frontend/builder/) rejects the excess. Significant newlines (NL) are decided by
// the token filter in frontend/lexer/ (code bodies vs declarative sections, open parentheses):
// this grammar sees an NL token only where it ends a statement. Nothing here knows C++ types.
grammar IT;

// =============================================================================================
// Program structure (§2)
// =============================================================================================

program : component* EOF ;

component : classDef | functionDef | taskDef | coordinator ;

// Any identifier class; the builder checks the casing the position needs (§1.3).
anyName : VAR_NAME | TYPE_NAME | SPACE_ID ;
nameList : anyName ( ',' anyName )* ;

// =============================================================================================
// Types (§3)
// =============================================================================================

// `Id` is the OCR spelling of `1d` (R-4): it lexes as a TYPE_NAME and the builder accepts it.
dimensionality : DIMENSIONALITY | TYPE_NAME ;

typeSpec
    : dimensionality 'Array' 'of' ( staticType | 'List' 'of' staticType )   # dynArrayType
    | 'List' 'of' ( staticType | dimensionality 'Array' 'of' staticType )   # listType
    | staticType                                                            # plainType
    ;

staticType
    : 'Array' dimLen+ 'of' scalarType                                       # arrayOfType
    | scalarType dimLen*                                                    # scalarOrSuffixArray
    ;

// `Real` without precision is accepted here and reported by the builder.
scalarType
    : 'Integer' | 'Real' ( 'single-precision' | 'double-precision' )? | 'Character'
    | 'Boolean' | 'String' | 'Range' | TYPE_NAME
    ;

dimLen : '[' INTEGER ']' ;

// `a, b: T` or `total: Integer Reduction` (§3, §3.4)
definition : nameList ':' typeSpec 'Reduction'? ;

// =============================================================================================
// Classes (§3.3): colon form (Appendix A) and brace form (prose), R-10
// =============================================================================================

classDef : 'Class' anyName ( ':' definition* | '{' definition* '}' ) ;

// =============================================================================================
// Functions (§7): paper form and brace form [Ext]
// =============================================================================================

functionDef : 'Function' anyName functionRest ;
functionRest
    : '(' ( functionParam ( ',' functionParam )* )? ')' block      # braceFunction
    | ':' functionSection*                                         # paperFunction
    ;

functionParam : '&'? anyName ;

// Order and presence are checked by the builder (MissingSection / SectionOutOfOrder).
functionSection
    : 'Arguments' ':' definition*     # argumentsSection
    | 'Results' ':' definition*       # resultsSection
    | 'Compute' ':' code              # computeSection
    ;

// =============================================================================================
// The coordinator (§4)
// =============================================================================================

coordinator : 'Program' '(' anyName ')' block ;

// =============================================================================================
// Tasks (§5); section order and presence are checked by the builder
// =============================================================================================

taskDef : 'Task' STRING ':' taskSection* ;

taskSection
    : 'Define' ':' definition*                                          # defineSection
    | 'Environment' ':' linkage*                                        # environmentSection
    | 'Initialize' ( '(' nameList? ')' )? ':' code                      # initializeSection
    | 'Stages' ':' stageDef*                                            # stagesSection
    | 'Computation' ':' flowPart*                                       # computationSection
    | 'Partition' ( '(' nameList? ')' )? ':' spaceConfig*               # partitionSection
    ;

// `link_or_create` (R-11) and unknown words arrive as anyName and are checked by the builder.
linkage : nameList ':' linkMode ;
linkMode : 'link' | 'create' | 'link-or-create' | anyName ;

stageDef : anyName '(' nameList? ')' block ;

// =============================================================================================
// Code bodies and statements (§6)
// =============================================================================================

block : '{' code '}' ;

// Statements separated by newlines; the filter drops NL after `{`, before `}` and collapses runs.
code : ( stmt ( NL stmt )* )? ;

stmt
    : doStmt
    | ifStmt
    | returnStmt
    | externBlock
    | expr            // includes assignments, calls and the statement form of reduce
    ;

// do { } for ...  /  do in sequence { } for ...  /  do [in sequence] { } while e
doStmt : 'do' ( 'in' 'sequence' )? block doTail ;

// One shape for both loop kinds; the builder checks which parts each kind may have.
doTail
    : 'for' indexGroup ( ';' indexGroup )* ( 'step' bitOrExpr ( 'and' expr )? )?   # forTail
    | 'while' expr                                                               # whileTail
    ;

// `i, j in a.dimension2 and cond`; the collection stops before `and` (bitOrExpr).
indexGroup : nameList 'in' bitOrExpr ( 'and' expr )? ;

ifStmt : 'if' '(' expr ')' block ( 'else' 'if' '(' expr ')' block )* ( 'else' block )? ;

returnStmt : 'return' expr ;

// §7.3: newlines inside the extern block are whitespace (the filter treats it as declarative).
externBlock
    : '@Extern' '{' '@Language' STRING externWords? externWords? NATIVE_CODE '}'
    ;
externWords : INCLUDES | LIBRARIES | K_INCLUDES | K_LIBRARIES ;   // bare keyword: `{` missing

// =============================================================================================
// Expressions, by precedence from lowest to highest (§1.6, R-7)
// =============================================================================================

expr : assignExpr ;

assignExpr : orExpr ( '=' assignExpr )? ;                      // right-associative

orExpr     : andExpr ( ( 'or' | '||' ) andExpr )* ;
andExpr    : bitOrExpr ( ( 'and' | '&&' ) bitOrExpr )* ;
bitOrExpr  : bitXorExpr ( '|' bitXorExpr )* ;
bitXorExpr : bitAndExpr ( '^' bitAndExpr )* ;
bitAndExpr : eqExpr ( '&' eqExpr )* ;
eqExpr     : relExpr ( ( '==' | '!=' ) relExpr )* ;
relExpr    : shiftExpr ( ( '<' | '>' | '<=' | '>=' ) shiftExpr )* ;
shiftExpr  : addExpr ( ( '<<' | '>>' ) addExpr )* ;
addExpr    : mulExpr ( ( '+' | '-' ) mulExpr )* ;
mulExpr    : powExpr ( ( '*' | '/' | '%' ) powExpr )* ;
powExpr    : unaryExpr ( '**' powExpr )? ;                     // right-associative
unaryExpr  : ( '-' | '!' ) unaryExpr | epochExpr ;

// e at (current) / e at (current - n); other shapes are reported by the builder.
epochExpr  : postfixExpr ( 'at' '(' 'current' ( ( '-' | '+' ) unaryExpr )? ')' )? ;

postfixExpr : primary postfixOp* ;
postfixOp
    : '.' memberName              # memberOp       // fields and the contextual properties (R-3)
    | '[' subscript ']'           # subscriptOp
    ;

// After `.` a lower-case reserved word is a name too: `args.step` reads the command-line key
// `step`, and no other name in that position can be mistaken for the keyword.
memberName
    : anyName
    | 'do' | 'in' | 'sequence' | 'for' | 'foreach' | 'while' | 'step' | 'if' | 'else' | 'and' | 'or'
    | 'of' | 'at' | 'current' | 'reduce' | 'return' | 'new' | 'execute' | 'divides' | 'partitions'
    | 'dynamic' | 'replicated' | 'padding' | 'increasing' | 'decreasing' | 'unordered' | 'ordered'
    | 'link' | 'create' | 'true' | 'false' | 'partition' | 'lpuId'
    ;

subscript
    : expr '...' expr             # sectionSubscript
    | '...'                       # wholeSubscript
    | expr                        # indexSubscript
    ;

primary
    : INTEGER                                             # intLit
    | REAL                                                # realLit
    | CHAR_LIT                                            # charLit
    | STRING                                              # stringLit
    | ( 'TRUE' | 'FALSE' | 'true' | 'false' )             # boolLit
    | 'lpuId'                                             # lpuIdExpr
    | 'partition' '.' anyName                             # partitionParamExpr
    | 'reduce' '(' callArgs? ')'                          # reduceCall
    | 'execute' '(' executeArg ( ';' executeArg )* ')'    # executeCall
    | 'new' newTarget                                     # newExpr
    | anyName '(' callArgs? ')'                           # callExpr
    | anyName                                             # nameExpr
    | '(' expr ')'                                        # parenExpr
    | '[' expr '...' expr ']'                             # rangeLit
    ;

callArgs : callArg ( ',' callArg )* ;
callArg
    : 'Space' ( anyName | 'Root' ) ':' anyName   # spaceArg   // §6.7 [Ext]: Root may receive
    | expr                          # exprArg
    ;

// Labels are contextual words (R-3): task, environment, initialize, and the keyword partition.
executeArg : ( anyName | 'partition' ) ':' expr ( ',' expr )* ;

newTarget
    : dimensionality 'Array' 'of' ( staticType | 'List' 'of' staticType )               # newDynArray
    | 'List' 'of' ( staticType | dimensionality 'Array' 'of' staticType )               # newList
    | ( TYPE_NAME | 'Range' | 'TaskEnvironment' ) '(' ( namedArg ( ',' namedArg )* )? ')'  # newObject
    ;
namedArg : anyName ':' expr ;

// =============================================================================================
// The Computation section (§8); newlines are whitespace here
// =============================================================================================

flowPart
    : 'Space' anyName '{' flowPart* '}'                               # spaceBlock
    | 'Repeat' repeatControl '{' flowPart* '}'                        # repeatBlock
    | ( 'Where' | 'If' ) expr ( 'in' expr )? '{' flowPart* '}'         # conditionBlock
    | 'Epoch' '{' flowPart* '}'                                       # epochBlock
    | anyName '(' callArgs? ')'                                        # stageCall
    ;

repeatControl
    : 'for' anyName 'in' expr ( 'step' expr )?      # repeatFor
    | 'foreach' 'sub-partition'                     # repeatForeach
    | 'while' expr                                  # repeatWhile
    | expr                                          # repeatBare      // prose form (R-50)
    ;

// =============================================================================================
// The Partition section (§9.1)
// =============================================================================================

spaceConfig
    : 'Space' anyName '<' ( dimensionality | 'un-partitioned' ) '>' spaceAttribute*
      '{' spaceItem* '}'
    ;

spaceAttribute
    : 'dynamic'                                                         # dynamicAttr
    | '<' 'dynamic' '>'                                                 # dynamicAttr2
    | 'divides' 'Space' anyName ( 'partitions' | 'sub-partitions' )     # dividesAttr
    ;

spaceItem : dataConfig | subpartitionConfig ;

// Without `:` this is a bare-name list, which only un-partitioned spaces may use (R-62).
dataConfig : varSelector ( ',' varSelector )* ( ':' instruction ( ',' instruction )* )? ;

varSelector : anyName ( '<' anyName ( ',' anyName )* '>' )? ;

instruction
    : 'replicated'                                                         # replicatedInstr
    | anyName '(' ( expr ( ',' expr )* )? ')'
      ( 'padding' '(' ( expr ( ',' expr )* )? ')' )?                       # functionInstr
    ;

subpartitionConfig
    : 'Sub-partition' '<' dimensionality '>' '<' orderWord '>' '{' dataConfig* '}'
    ;
orderWord : 'increasing' | 'decreasing' | 'unordered' | 'ordered' | anyName ;

// =============================================================================================
// Lexer (§1)
// =============================================================================================

// Reserved words (§1.5). Hyphenated keywords are single tokens and win over `-` by length.
// Keep K_PROGRAM ... K_COMPUTE first: frontend/ treats token types 1..13 as section keywords.
K_PROGRAM : 'Program' ;         K_CLASS : 'Class' ;             K_TASK : 'Task' ;
K_FUNCTION : 'Function' ;       K_DEFINE : 'Define' ;           K_ENVIRONMENT : 'Environment' ;
K_INITIALIZE : 'Initialize' ;   K_STAGES : 'Stages' ;           K_COMPUTATION : 'Computation' ;
K_PARTITION : 'Partition' ;     K_ARGUMENTS : 'Arguments' ;     K_RESULTS : 'Results' ;
K_COMPUTE : 'Compute' ;         K_SPACE : 'Space' ;             K_REPEAT : 'Repeat' ;
K_WHERE : 'Where' ;             K_IF_FLOW : 'If' ;              K_EPOCH : 'Epoch' ;
K_ROOT : 'Root' ;               K_SUB_PARTITION_UC : 'Sub-partition' ;
K_INTEGER : 'Integer' ;         K_REAL : 'Real' ;               K_CHARACTER : 'Character' ;
K_BOOLEAN : 'Boolean' ;         K_STRING : 'String' ;           K_ARRAY : 'Array' ;
K_LIST : 'List' ;               K_RANGE : 'Range' ;             K_TASK_ENVIRONMENT : 'TaskEnvironment' ;
K_REDUCTION : 'Reduction' ;
K_SINGLE : 'single-precision' ; K_DOUBLE : 'double-precision' ;
K_LINK : 'link' ;               K_CREATE : 'create' ;           K_LINK_OR_CREATE : 'link-or-create' ;
K_DO : 'do' ;                   K_IN : 'in' ;                   K_SEQUENCE : 'sequence' ;
K_FOR : 'for' ;                 K_FOREACH : 'foreach' ;         K_WHILE : 'while' ;
K_STEP : 'step' ;               K_IF : 'if' ;                   K_ELSE : 'else' ;
K_AND : 'and' ;                 K_OR : 'or' ;                   K_OF : 'of' ;
K_AT : 'at' ;                   K_CURRENT : 'current' ;         K_REDUCE : 'reduce' ;
K_RETURN : 'return' ;           K_NEW : 'new' ;                 K_EXECUTE : 'execute' ;
K_DIVIDES : 'divides' ;         K_PARTITIONS : 'partitions' ;   K_SUB_PARTITIONS : 'sub-partitions' ;
K_UN_PARTITIONED : 'un-partitioned' ;  K_DYNAMIC : 'dynamic' ;  K_REPLICATED : 'replicated' ;
K_PADDING : 'padding' ;         K_INCREASING : 'increasing' ;   K_DECREASING : 'decreasing' ;
K_UNORDERED : 'unordered' ;     K_ORDERED : 'ordered' ;         K_SUB_PARTITION : 'sub-partition' ;
K_TRUE_UC : 'TRUE' ;            K_FALSE_UC : 'FALSE' ;          K_TRUE : 'true' ;
K_FALSE : 'false' ;             K_PARTITION_LC : 'partition' ;  K_LPUID : 'lpuId' ;

// Native code (§7.3)
K_EXTERN : '@Extern' ;
K_LANGUAGE : '@Language' ;
// `@Includes { cmath, sys/time.h }` is one token: words are split by the builder, since a
// header name is not an IT token (combined grammars have no lexer modes).
INCLUDES : '@Includes' [ \t\r\n]* '{' ~[{}$]* '}' ;
LIBRARIES : '@Libraries' [ \t\r\n]* '{' ~[{}$]* '}' ;
K_INCLUDES : '@Includes' ;
K_LIBRARIES : '@Libraries' ;
NATIVE_CODE : '${' ~[$]* '}$' ;
UNTERMINATED_NATIVE : '${' ~[$]* ;          // no `}$` before a `$` or the end of the file

// Operators and punctuation (§1.6)
ELLIPSIS : '...' ;   POWER : '**' ;   SHL : '<<' ;   SHR : '>>' ;   LE : '<=' ;   GE : '>=' ;
EQ : '==' ;   NE : '!=' ;   AND_AND : '&&' ;   OR_OR : '||' ;
PLUS : '+' ;  MINUS : '-' ;  STAR : '*' ;  SLASH : '/' ;  PERCENT : '%' ;  AMP : '&' ;
PIPE : '|' ;  CARET : '^' ;  BANG : '!' ;  LT : '<' ;  GT : '>' ;  ASSIGN : '=' ;
DOT : '.' ;  COMMA : ',' ;  SEMI : ';' ;  COLON : ':' ;  LPAREN : '(' ;  RPAREN : ')' ;
LBRACK : '[' ;  RBRACK : ']' ;  LBRACE : '{' ;  RBRACE : '}' ;

// Literals (§1.4); a dimensionality is digits then d/D (R-4; a leading 0 is rejected later)
DIMENSIONALITY : [0-9]+ [dD] ;
REAL : [0-9]+ '.' [0-9]+ ;
INTEGER : [0-9]+ ;
CHAR_LIT : '\'' ~['\r\n] '\'' ;
BAD_CHAR_LIT : '\'' ~['\r\n]* '\''? ;       // empty, several characters, or unterminated
STRING : '"' ~["\r\n]* '"' ;
UNTERMINATED_STRING : '"' ~["\r\n]* ;

// Identifiers (§1.3): the first letter decides the class of name
SPACE_ID : [A-Z] ;
TYPE_NAME : [A-Z] [A-Za-z0-9_]+ ;
VAR_NAME : [a-z] [A-Za-z0-9_]* ;
BAD_NAME : '_' [A-Za-z0-9_]* ;              // names never start with `_`

// Layout (§1.2): continuation joins lines; every newline becomes NL and the filter decides.
CONTINUATION : '\\' [ \t]* '\r'? '\n' -> skip ;
COMMENT : '//' ~[\r\n]* -> skip ;
WS : [ \t\f]+ -> skip ;
NL : '\r'? '\n' | '\r' ;
ERROR_CHAR : . ;
