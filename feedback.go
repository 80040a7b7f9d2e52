package lore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lorehq/lore/graph"
)

// FeedbackOptions record whether a learning helped in a run of an agent or
// a person.
type FeedbackOptions struct {
	Learning string // id or unique prefix
	Run      string // run id, with or without the run: prefix
	Helpful  bool
}

// Feedback is the usage of a learning in one run: a USED_IN_RUN edge with
// the verdict in its metadata. Its JSON form is a stable API.
type Feedback struct {
	Learning string `json:"learning"`
	Run      string `json:"run"` // without the run: prefix
	// Helpful is the latest verdict; HelpfulCount and UnhelpfulCount count
	// every verdict given for this run, Mentions every report.
	Helpful        bool      `json:"helpful"`
	HelpfulCount   int       `json:"helpful_count"`
	UnhelpfulCount int       `json:"unhelpful_count"`
	Mentions       int       `json:"mentions"`
	UpdatedAt      time.Time `json:"updated_at"`
}

func (o *FeedbackOptions) validate() error {
	if o.Learning == "" {
		return errors.New("feedback: give the learning's id")
	}
	run := strings.TrimPrefix(o.Run, "run:")
	if run == "" || strings.ContainsAny(run, " \t\n") {
		return fmt.Errorf("feedback: run %q: give a run id such as R-77 (no spaces)", o.Run)
	}
	o.Run = run
	return nil
}

// Feedback records a verdict on a learning for a run. Reporting the same
// learning and run again updates the verdict and raises the mention count.
// Feedback lives in the store only (it is usage, not authored text).
func (w *Workspace) Feedback(ctx context.Context, opts FeedbackOptions) (*Feedback, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	var fb *Feedback
	err := w.withWriter(ctx, func(st *graph.Store) error {
		l, err := w.lookup(opts.Learning)
		if err != nil {
			return err
		}
		return st.Update(func(tx *graph.Tx) error {
			key := graph.EdgeKey{Type: graph.UsedInRun, From: learningNode(l.ID), To: "run:" + opts.Run}
			helpful, unhelpful := 0, 0
			if old, err := tx.Edge(key); err == nil {
				helpful, unhelpful = metaInt(old.Metadata, "helpful_count"), metaInt(old.Metadata, "unhelpful_count")
			} else if !errors.Is(err, graph.ErrNotFound) {
				return err
			}
			verdict := "unhelpful"
			if opts.Helpful {
				verdict = "helpful"
				helpful++
			} else {
				unhelpful++
			}
			e, err := tx.UpsertEdge(graph.Edge{Type: key.Type, From: key.From, To: key.To, Weight: 1,
				Metadata: map[string]any{"verdict": verdict, "helpful": opts.Helpful, "helpful_count": helpful, "unhelpful_count": unhelpful}})
			if err != nil {
				return err
			}
			fb = feedbackOf(l.ID, e)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return fb, nil
}

// LearningFeedback returns the feedback recorded for a learning, newest
// first.
func (w *Workspace) LearningFeedback(ctx context.Context, id string) ([]Feedback, error) {
	out := []Feedback{}
	err := w.withStore(ctx, func(st *graph.Store) error {
		l, err := w.lookup(id)
		if err != nil {
			return err
		}
		es, err := st.Edges(learningNode(l.ID), graph.Out, graph.Filter{Types: []graph.EdgeType{graph.UsedInRun}})
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		for _, e := range es {
			out = append(out, *feedbackOf(l.ID, e))
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].Run < out[j].Run
	})
	return out, err
}

func feedbackOf(id string, e graph.Edge) *Feedback {
	h, _ := e.Metadata["helpful"].(bool)
	return &Feedback{
		Learning:       id,
		Run:            strings.TrimPrefix(e.To, "run:"),
		Helpful:        h,
		HelpfulCount:   metaInt(e.Metadata, "helpful_count"),
		UnhelpfulCount: metaInt(e.Metadata, "unhelpful_count"),
		Mentions:       e.Mentions,
		UpdatedAt:      e.UpdatedAt,
	}
}

// metaInt reads a count from edge metadata (numbers come back from JSON as
// float64).
func metaInt(m map[string]any, k string) int {
	switch v := m[k].(type) {
	case float64:
		return int(v)
	case int:
		return v
	case int64:
		return int(v)
	}
	return 0
}
