package analyzer

/*
#include <stdbool.h>
#include <stdint.h>

// The parts of tree-sitter's C API (api.h of the version go-tree-sitter
// bundles) that the walker uses, declared here: the library itself is
// linked through go-tree-sitter.
typedef struct { uint32_t row; uint32_t column; } lore_point;
// TSNode, with its pointers as integers: Go memory holding lore_info
// then holds no pointer that cgo would check at every call.
typedef struct { uint32_t context[4]; uintptr_t id; uintptr_t tree; } lore_tsnode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } lore_cursor;

extern uint16_t ts_node_symbol(lore_tsnode);
extern uint32_t ts_node_start_byte(lore_tsnode);
extern uint32_t ts_node_end_byte(lore_tsnode);
extern lore_point ts_node_start_point(lore_tsnode);
extern lore_point ts_node_end_point(lore_tsnode);
extern bool ts_node_is_named(lore_tsnode);
extern bool ts_node_is_missing(lore_tsnode);
extern bool ts_node_is_extra(lore_tsnode);
extern bool ts_node_has_error(lore_tsnode);
extern bool ts_node_is_null(lore_tsnode);
extern lore_tsnode ts_node_parent(lore_tsnode);
extern lore_tsnode ts_node_prev_sibling(lore_tsnode);
extern lore_tsnode ts_node_next_named_sibling(lore_tsnode);
extern lore_tsnode ts_node_named_descendant_for_point_range(lore_tsnode, lore_point, lore_point);
extern lore_cursor ts_tree_cursor_new(lore_tsnode);
extern void ts_tree_cursor_delete(lore_cursor *);
extern bool ts_tree_cursor_goto_first_child(lore_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(lore_cursor *);
extern lore_tsnode ts_tree_cursor_current_node(const lore_cursor *);
extern lore_tsnode ts_node_child_by_field_id(lore_tsnode, uint16_t);
extern const char *ts_node_field_name_for_child(lore_tsnode, uint32_t);

enum { lore_named = 1, lore_missing = 2, lore_has_error = 4 };

// lore_info is what the walker reads of a node, fetched in one call.
typedef struct {
	lore_tsnode node;
	uint32_t start, end;
	lore_point sp, ep;
	uint16_t symbol;
	uint8_t flags;
} lore_info;

static void lore_info_of(lore_tsnode n, lore_info *out);

static void lore_fill(lore_info *out, lore_tsnode n) {
	out->node = n;
	out->start = ts_node_start_byte(n);
	out->end = ts_node_end_byte(n);
	out->sp = ts_node_start_point(n);
	out->ep = ts_node_end_point(n);
	out->symbol = ts_node_symbol(n);
	out->flags = (ts_node_is_named(n) ? lore_named : 0) | (ts_node_is_missing(n) ? lore_missing : 0) |
		(ts_node_has_error(n) ? lore_has_error : 0);
}

// lore_children writes the children of n (at most cap) to out and
// returns how many n has. A cursor steps from one child to the next in
// constant time, where ts_node_child(i) starts over from the first; it
// gives an extra (a comment) the alias of the position it fills, which
// an extra never takes: the alias is cleared. (Its field ids disagree
// with ts_node_child_by_field_id in places: fields are asked of the node.)
static uint32_t lore_children(lore_tsnode n, lore_info *out, uint32_t cap) {
	lore_cursor c = ts_tree_cursor_new(n);
	uint32_t i = 0;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			if (i < cap) {
				lore_tsnode k = ts_tree_cursor_current_node(&c);
				if (ts_node_is_extra(k)) {
					k.context[3] = 0;
				}
				lore_fill(&out[i], k);
			}
			i++;
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return i;
}

// lore_field_child describes the first child of n in the field; its
// node is null when there is none.
static void lore_field_child(lore_tsnode n, uint16_t field, lore_info *out) {
	lore_info_of(ts_node_child_by_field_id(n, field), out);
}

static void lore_info_of(lore_tsnode n, lore_info *out) {
	if (ts_node_is_null(n)) {
		out->node = n;
		return;
	}
	lore_fill(out, n);
}

static void lore_parent(lore_tsnode n, lore_info *out) { lore_info_of(ts_node_parent(n), out); }
static void lore_prev_sibling(lore_tsnode n, lore_info *out) { lore_info_of(ts_node_prev_sibling(n), out); }
static void lore_next_named_sibling(lore_tsnode n, lore_info *out) { lore_info_of(ts_node_next_named_sibling(n), out); }
static void lore_descendant(lore_tsnode n, lore_point from, lore_point to, lore_info *out) {
	lore_info_of(ts_node_named_descendant_for_point_range(n, from, to), out);
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// node is a syntax node as the walker reads it: what it asks of a node
// (type, extent, flags) is fetched with the node, and a node's children
// are fetched in one call, the first time they are asked for. Through
// go-tree-sitter's Node, each of those is a cgo call of its own, and each
// node handed out is a new allocation and an entry in a map; the walker
// asked for a node's i-th child by counting from the first.
type node struct {
	info   C.lore_info
	f      *forest
	parent *node
	kids   []*node
	loaded bool
}

// forest hands out the nodes of one tree: from slabs that the next tree
// reuses, since no node outlives the walk of its tree.
type forest struct {
	lang  *Language
	slabs [][]node
	slab  int // current slab
	used  int // nodes used in it
	buf   []C.lore_info
	ptrs  []*node
}

const slabSize = 1024

// reset readies f for the tree of a file in l.
func (f *forest) reset(l *Language) {
	f.lang = l
	f.slab, f.used = 0, 0
	f.ptrs = f.ptrs[:0]
}

// trim lets go of what a large tree left: slabs beyond the first 64, and
// child lists and buffers past their usual size.
func (f *forest) trim() {
	if len(f.slabs) > 64 {
		clear(f.slabs[64:])
		f.slabs = f.slabs[:64]
	}
	if cap(f.ptrs) > 1<<16 {
		f.ptrs = nil
	}
	if cap(f.buf) > 1<<12 {
		f.buf = nil
	}
}

func (f *forest) alloc(info *C.lore_info, parent *node) *node {
	if f.slab == len(f.slabs) {
		f.slabs = append(f.slabs, make([]node, slabSize))
	}
	n := &f.slabs[f.slab][f.used]
	if f.used++; f.used == slabSize {
		f.slab, f.used = f.slab+1, 0
	}
	*n = node{info: *info, f: f, parent: parent}
	return n
}

// adopt returns the node of a go-tree-sitter node (the root of a tree, a
// query's capture): its first field is the C node.
func (f *forest) adopt(sn *sitter.Node) *node {
	if sn == nil {
		return nil
	}
	var info C.lore_info
	C.lore_info_of(*(*C.lore_tsnode)(unsafe.Pointer(sn)), &info)
	return f.alloc(&info, nil)
}

// wrap returns the node info describes, nil for a null node.
func (f *forest) wrap(info *C.lore_info, parent *node) *node {
	if info.node.id == 0 {
		return nil
	}
	return f.alloc(info, parent)
}

func (n *node) children() []*node {
	if n.loaded {
		return n.kids
	}
	n.loaded = true
	f := n.f
	if cap(f.buf) == 0 {
		f.buf = make([]C.lore_info, 64)
	}
	cnt := int(C.lore_children(n.info.node, &f.buf[0], C.uint32_t(len(f.buf))))
	if cnt > len(f.buf) {
		f.buf = make([]C.lore_info, cnt)
		C.lore_children(n.info.node, &f.buf[0], C.uint32_t(len(f.buf)))
	}
	from := len(f.ptrs)
	for i := range cnt {
		f.ptrs = append(f.ptrs, f.alloc(&f.buf[i], n))
	}
	n.kids = f.ptrs[from:len(f.ptrs):len(f.ptrs)]
	return n.kids
}

func (n *node) ChildCount() uint32 { return uint32(len(n.children())) }

func (n *node) Child(i int) *node {
	if k := n.children(); i >= 0 && i < len(k) {
		return k[i]
	}
	return nil
}

func (n *node) NamedChildCount() uint32 {
	c := uint32(0)
	for _, k := range n.children() {
		if k.IsNamed() {
			c++
		}
	}
	return c
}

func (n *node) NamedChild(i int) *node {
	for _, k := range n.children() {
		if k.IsNamed() {
			if i == 0 {
				return k
			}
			i--
		}
	}
	return nil
}

// ChildByFieldName returns the first child in the field name: tree-sitter
// finds it (one call), and n's children give it back as a node of theirs,
// told by its extent and symbol (under an alias, the node the field
// names is not always the very node the cursor gave).
func (n *node) ChildByFieldName(name string) *node {
	field := n.f.lang.fields[name]
	if field == 0 {
		return nil
	}
	var info C.lore_info
	C.lore_field_child(n.info.node, C.uint16_t(field), &info)
	if info.node.id == 0 {
		return nil
	}
	for _, k := range n.children() {
		if k.info.start == info.start && k.info.end == info.end && k.info.symbol == info.symbol {
			return k
		}
	}
	return n.f.alloc(&info, n)
}

// FieldNameForChild returns the field of n's i-th child, "" when none.
func (n *node) FieldNameForChild(i int) string {
	if i < 0 || i >= len(n.children()) {
		return ""
	}
	return C.GoString(C.ts_node_field_name_for_child(n.info.node, C.uint32_t(i)))
}

func (n *node) Parent() *node {
	if n.parent == nil {
		var info C.lore_info
		C.lore_parent(n.info.node, &info)
		n.parent = n.f.wrap(&info, nil)
	}
	return n.parent
}

// PrevSibling is tree-sitter's previous sibling, which is not always the
// child before n in its parent's children (the last node of that child
// when it ends where n starts, for one).
func (n *node) PrevSibling() *node {
	var info C.lore_info
	C.lore_prev_sibling(n.info.node, &info)
	return n.f.wrap(&info, nil)
}

// NextNamedSibling is tree-sitter's next named sibling, nil after the
// last.
func (n *node) NextNamedSibling() *node {
	var info C.lore_info
	C.lore_next_named_sibling(n.info.node, &info)
	return n.f.wrap(&info, nil)
}

// NamedDescendantForPointRange returns the smallest named node below n
// that spans from to to.
func (n *node) NamedDescendantForPointRange(from, to sitter.Point) *node {
	var info C.lore_info
	C.lore_descendant(n.info.node, C.lore_point{row: C.uint32_t(from.Row), column: C.uint32_t(from.Column)},
		C.lore_point{row: C.uint32_t(to.Row), column: C.uint32_t(to.Column)}, &info)
	return n.f.wrap(&info, nil)
}

// Equal tells whether n and o are the same node of the tree: the same
// extent and symbol (tree-sitter's ids of one node may differ by the path
// that found it; see ChildByFieldName).
func (n *node) Equal(o *node) bool {
	return o != nil && n.info.node.tree == o.info.node.tree && n.info.start == o.info.start &&
		n.info.end == o.info.end && n.info.symbol == o.info.symbol
}

func (n *node) StartByte() uint32 { return uint32(n.info.start) }
func (n *node) EndByte() uint32   { return uint32(n.info.end) }
func (n *node) StartPoint() sitter.Point {
	return sitter.Point{Row: uint32(n.info.sp.row), Column: uint32(n.info.sp.column)}
}
func (n *node) EndPoint() sitter.Point {
	return sitter.Point{Row: uint32(n.info.ep.row), Column: uint32(n.info.ep.column)}
}
func (n *node) IsNamed() bool   { return n.info.flags&C.lore_named != 0 }
func (n *node) IsMissing() bool { return n.info.flags&C.lore_missing != 0 }
func (n *node) HasError() bool  { return n.info.flags&C.lore_has_error != 0 }

// IsError tells an ERROR node (tree-sitter's symbol 65535).
func (n *node) IsError() bool { return n.info.symbol == 0xFFFF }

// Type is the name of n's symbol.
func (n *node) Type() string {
	if s := int(n.info.symbol); s < len(n.f.lang.types) {
		return n.f.lang.types[s]
	}
	if n.IsError() {
		return "ERROR"
	}
	return ""
}

// declaredLayout is the layout of the C types declared above by hand, in
// the terms of tree-sitter's api.h: TestNodeLayout compares it with the
// header go-tree-sitter bundles, so that a change there fails a test
// instead of corrupting memory.
func declaredLayout() map[string]uintptr {
	var n C.lore_tsnode
	var p C.lore_point
	var c C.lore_cursor
	return map[string]uintptr{
		"sizeof(TSNode)":                      unsafe.Sizeof(n),
		"sizeof(((TSNode*)0)->context)":       unsafe.Sizeof(n.context),
		"offsetof(TSNode, context)":           unsafe.Offsetof(n.context),
		"offsetof(TSNode, id)":                unsafe.Offsetof(n.id),
		"offsetof(TSNode, tree)":              unsafe.Offsetof(n.tree),
		"sizeof(TSPoint)":                     unsafe.Sizeof(p),
		"offsetof(TSPoint, row)":              unsafe.Offsetof(p.row),
		"offsetof(TSPoint, column)":           unsafe.Offsetof(p.column),
		"sizeof(TSTreeCursor)":                unsafe.Sizeof(c),
		"sizeof(((TSTreeCursor*)0)->context)": unsafe.Sizeof(c.context),
		"offsetof(TSTreeCursor, tree)":        unsafe.Offsetof(c.tree),
		"offsetof(TSTreeCursor, id)":          unsafe.Offsetof(c.id),
		"offsetof(TSTreeCursor, context)":     unsafe.Offsetof(c.context),
		"sizeof(TSSymbol)":                    unsafe.Sizeof(C.uint16_t(0)),
		"sizeof(TSFieldId)":                   unsafe.Sizeof(C.uint16_t(0)),
	}
}
