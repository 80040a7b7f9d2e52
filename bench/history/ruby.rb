# The Ruby oracle of bench/history: Ruby's own parser
# (RubyVM::AbstractSyntaxTree) reads the declarations of a file. One
# request a line on stdin, a JSON object {"path": ..., "src": base64 of
# the file}; one answer a line on stdout, {"ok": false} when the file does
# not parse, else {"ok": true, "decls": [[name, tree], ...]}: every class,
# module and method (def and def self.), wherever it stands (in a block,
# a condition, class << self), named as lore names them ("C", "A::B",
# "C::m"; class << self adds no name), and its tree.
#
# A tree is the node types and values without positions: comments are not
# in it, nor what the parser does not keep apart (quotes, parentheses
# around arguments or a condition, `:a =>` against `a:`, `do … end`
# against braces, `and` against `&&`, a heredoc's spelling), nor empty
# statements, nor blanks at line ends inside strings (lore's hash drops
# them); __LINE__ is a name, not its line's number.
require 'base64'
require 'json'

# dump is n's tree; an empty statement (`def f(a); a; end` holds one
# after its parameters) is no statement.
def dump(n)
  case n
  when RubyVM::AbstractSyntaxTree::Node
    kids = n.children
    if n.type == :BLOCK
      kids = kids.reject { |c| c.is_a?(RubyVM::AbstractSyntaxTree::Node) && c.type == :BEGIN && c.children == [nil] }
      return dump(kids[0]) if kids.size == 1
    end
    "(#{n.type}" + kids.map { |c| " " + dump(c) }.join + ")"
  when Array
    "[" + n.map { |c| dump(c) }.join(" ") + "]"
  when String # blanks at line ends do not count, as in lore's hash
    n.b.gsub(/[ \t]+\n/n, "\n").inspect
  else
    n.inspect
  end
end

def cname(n)
  case n&.type
  when :COLON2 then [cname(n.children[0]), n.children[1].to_s].compact.join('::')
  when :COLON3, :CONST then n.children[0].to_s
  end
end

def walk(n, scope, out)
  return unless n.is_a?(RubyVM::AbstractSyntaxTree::Node)
  case n.type
  when :CLASS, :MODULE
    q = scope + cname(n.children[0]).split('::')
    out << [q.join('::'), dump(n)]
    n.children[1..].each { |c| walk(c, q, out) }
    return
  when :DEFN, :DEFS
    k = n.type == :DEFN ? 0 : 1
    q = scope + [n.children[k].to_s]
    out << [q.join('::'), dump(n)]
    walk(n.children[k + 1], q, out)
    return
  end
  n.children.each { |c| walk(c, scope, out) }
end

def answer(req)
  src = Base64.decode64(req["src"])
  src.force_encoding(Encoding::UTF_8)
  # The parser reads __LINE__ as the number of its line, which moves
  # with any line above it: one name of its length for it, everywhere.
  src = src.gsub("__LINE__", "__LINX__") if src.valid_encoding?
  ast = begin
    RubyVM::AbstractSyntaxTree.parse(src)
  rescue SyntaxError, ArgumentError, EncodingError, SystemStackError
    return {ok: false}
  end
  out = []
  begin
    walk(ast, [], out)
  rescue SystemStackError
    return {ok: false}
  end
  {ok: true, decls: out}
end

$stdout.sync = true
$stdin.each_line do |line|
  ans = begin
    JSON.generate(answer(JSON.parse(line)))
  rescue StandardError # a name that is no UTF-8, a parser's own error
    JSON.generate({ok: false})
  end
  $stdout.write(ans + "\n")
end
