// Package verify runs one verification of a workspace's learnings: Read
// takes what it reads from git or the working tree (the files, the base
// where baselines were probably taken, the files a change touched), Check
// verifies the selected anchors in one run of the anchors package's
// verifier and adds a finding for every learning file that does not parse,
// Record keeps each anchor's status and the transitions between them in
// the store, and Fix rewrites the baselines of anchors that moved or were
// reformatted — in the staged version of a learning file and its working
// copy separately when the pre-commit hook verifies what is staged.
//
// Drivers differ only in what they read and how they report: the hook
// reads git's index, CI a commit's tree and the merge base with the
// target branch, editors and agents the working tree.
package verify
