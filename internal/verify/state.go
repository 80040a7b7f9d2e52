package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lorehq/lore/anchors"
	"github.com/lorehq/lore/graph"
	"github.com/lorehq/lore/internal/catalog"
)

// Verification state in the store.
const (
	nsAnchorState = "vs" // learning/anchor -> anchorState
	nsHistory     = "vh" // learning/time/anchor -> Transition
)

type anchorState struct {
	Status anchors.Status `json:"s"`
	Change anchors.Change `json:"c"`
	Spec   string         `json:"p"`
}

func stateKey(learning string, anchor int) string { return fmt.Sprintf("%s/%04d", learning, anchor) }

// Record stores each anchor's status and a transition when it changed;
// an anchor turning invalid adds INVALIDATED_BY learning→commit. States
// are read in one transaction and only changes are written, through a
// batch, so a first verification of many anchors fits. A stored state
// that does not decode is replaced as if the anchor had never been
// verified; damaged lists those anchors ("learning/anchor").
func Record(st *graph.Store, commit string, rs []anchors.Result) (damaged []string, err error) {
	now := time.Now().UTC()
	type change struct {
		i   int // in rs, to write in result order
		r   *anchors.Result
		cur anchorState
		old anchorState
	}
	var changes []change
	compare := func(i int, stored []byte) {
		r := &rs[i]
		var old anchorState
		if stored != nil && json.Unmarshal(stored, &old) != nil {
			old = anchorState{} // what did decode may be wrong too
			damaged = append(damaged, stateKey(r.Learning, r.Anchor))
		}
		if cur := (anchorState{Status: r.Status, Change: r.Change, Spec: r.Spec}); old != cur {
			changes = append(changes, change{i, r, cur, old})
		}
	}
	err = st.View(func(tx *graph.Tx) error {
		if len(rs) < 512 {
			for i := range rs {
				b, err := tx.Get(nsAnchorState, stateKey(rs[i].Learning, rs[i].Anchor))
				if err != nil && !errors.Is(err, graph.ErrNotFound) {
					return err
				}
				compare(i, b)
			}
			return nil
		}
		// Many results (a full verify): one pass over the stored states
		// instead of a lookup per anchor.
		byKey := make(map[string]int, len(rs))
		for i := range rs {
			byKey[stateKey(rs[i].Learning, rs[i].Anchor)] = i
		}
		err := tx.Scan(nsAnchorState, "", func(k string, v []byte) error {
			if i, ok := byKey[k]; ok {
				compare(i, v)
				delete(byKey, k)
			}
			return nil
		})
		for _, i := range byKey { // never verified before
			compare(i, nil)
		}
		slices.SortFunc(changes, func(a, b change) int { return a.i - b.i })
		return err
	})
	if err != nil || len(changes) == 0 {
		return damaged, err
	}
	return damaged, st.Batch(func(b *graph.Batch) error {
		for _, c := range changes {
			r := c.r
			sb, _ := json.Marshal(c.cur)
			if err := b.Set(nsAnchorState, stateKey(r.Learning, r.Anchor), sb); err != nil {
				return err
			}
			if c.old.Status == r.Status && c.old.Spec == r.Spec {
				continue // same status, another change kind: not a transition
			}
			t := anchors.Transition{Time: now, Commit: commit, Learning: r.Learning, Anchor: r.Anchor, Spec: r.Spec,
				OldStatus: c.old.Status, NewStatus: r.Status, Change: r.Change, From: r.From, To: r.To, Reason: r.Reason}
			tb, _ := json.Marshal(t)
			hk := fmt.Sprintf("%s/%020d/%04d", r.Learning, now.UnixNano(), r.Anchor)
			if err := b.Set(nsHistory, hk, tb); err != nil {
				return err
			}
			if r.Status == anchors.Invalid && commit != "" {
				err := b.UpsertEdge(graph.Edge{Type: graph.InvalidatedBy, From: graph.NodeID(graph.TypeLearning, r.Learning), To: graph.NodeID(graph.TypeCommit, commit), Weight: 1,
					Metadata: map[string]any{"anchor": r.Anchor, "spec": r.Spec, "change": string(r.Change)}})
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// History returns the recorded status transitions of learning id, oldest
// first.
func History(st *graph.Store, id string) ([]anchors.Transition, error) {
	var out []anchors.Transition
	err := st.View(func(tx *graph.Tx) error {
		return tx.Scan(nsHistory, id+"/", func(_ string, v []byte) error {
			var t anchors.Transition
			if err := json.Unmarshal(v, &t); err != nil {
				return err
			}
			out = append(out, t)
			return nil
		})
	})
	return out, err
}

// Statuses returns the last recorded verification status of each
// learning of ids: the worst of its anchors ("" when never verified).
func Statuses(st *graph.Store, ls *catalog.Learnings, ids []string) (map[string]anchors.Status, error) {
	out := map[string]anchors.Status{}
	err := st.View(func(tx *graph.Tx) error {
		for _, id := range ids {
			l := ls.Learning(id)
			if l == nil {
				continue
			}
			var worst anchors.Status
			for i := range l.Anchors {
				b, err := tx.Get(nsAnchorState, stateKey(id, i+1))
				if errors.Is(err, graph.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				var s anchorState
				if json.Unmarshal(b, &s) != nil || s.Spec != l.Anchors[i].Spec() {
					continue
				}
				if worst == "" || s.Status.Worse(worst) {
					worst = s.Status
				}
			}
			out[id] = worst
		}
		return nil
	})
	return out, err
}
