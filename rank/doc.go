// Package rank answers "what do we know that matters here?": it ranks a
// workspace's learnings for the code someone is working on (Context),
// draws a learning's relation tree (WriteRelations) and measures how alike
// learnings are (Corpus, Similar).
//
// Ranking is a function over a read-only view: the graph in lore's store
// (imports, co-change, links, similarity) and a View of the learnings and
// their last verification. A learning anchored to the target symbol ranks
// first; every hop away from it (an import followed in one direction, a
// co-change partner, a link or a similarity) multiplies the score by a
// decay and by the weight of the edge followed, and each result says in
// words how it was reached. Invalid learnings are listed apart, as stale,
// never presented as current.
//
// Similarity is lexical: TF-IDF vectors over a learning's title, tags,
// body and anchor locations, compared by cosine. The store keeps the few
// nearest learnings of each as SIMILAR_TO edges, which a sync updates for
// the learnings whose words changed (SimilarityText).
package rank
