; Shell functions: f() { … }, function f { … }.
(function_definition name: (word) @name) @definition.function
