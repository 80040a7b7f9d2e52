package anchors

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// SARIFOptions configure WriteSARIF.
type SARIFOptions struct {
	// ToolVersion is lore's version, reported as the driver's version.
	ToolVersion string
	// LearningPath maps a learning id to its file, for findings without a
	// code location (globs); default .lore/learnings/<id>.md.
	LearningPath func(id string) string
	// IncludeValid also reports valid anchors that moved or were
	// reformatted (level "note").
	IncludeValid bool
	// Titles maps learning ids to titles for results without a Title.
	Titles map[string]string
	// Compared says the results were compared with a base (verify
	// --changed-since): each result then has a baselineState, "unchanged"
	// for findings already there at the base, "new" for the others.
	Compared bool
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	BaselineState       string            `json:"baselineState,omitempty"`
	Properties          sarifProperties   `json:"properties"`
}

// sarifProperties carry the result's fields for tools that read more than
// the message.
type sarifProperties struct {
	Learning string    `json:"learning"`
	Title    string    `json:"title,omitempty"`
	Anchor   int       `json:"anchor"`
	Spec     string    `json:"spec"`
	Status   Status    `json:"status"`
	From     Location  `json:"from"`
	To       *Location `json:"to,omitempty"`
	NextStep string    `json:"nextStep,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

type sarifRuleDef struct {
	change Change
	level  string
	short  string
	full   string
}

// sarifRules describes every change kind as a rule; the rule id is the
// change kind.
func sarifRules() []sarifRuleDef {
	return []sarifRuleDef{
		{ChangeSignatureChanged, "warning", "Anchored symbol's signature changed", "The signature of the symbol a learning is anchored to changed; the learning may no longer hold. Review it and run lore anchor accept."},
		{ChangeBodyChanged, "warning", "Anchored code changed", "The code a learning is anchored to changed; the learning may no longer hold. Review it and run lore anchor accept."},
		{ChangeFileChanged, "warning", "Anchored file changed", "The file a learning is anchored to changed; review the learning and run lore anchor accept."},
		{ChangeNoMatch, "error", "Anchor matches nothing", "The text or glob a learning is anchored to is no longer found."},
		{ChangeMalformed, "error", "Learning file does not parse", "A learning file has a syntax error (often merge-conflict markers); its anchors cannot be verified until it is fixed."},
		{ChangeDeleted, "error", "Anchored symbol deleted", "The symbol a learning is anchored to no longer exists and was not found elsewhere."},
		{ChangeFileDeleted, "error", "Anchored file deleted", "The file a learning is anchored to was deleted and not found under another name."},
		{ChangeMoved, "note", "Anchored code moved", "The code a learning is anchored to moved; lore verify --fix updates the anchor."},
		{ChangeRenamed, "note", "Anchored symbol renamed", "The symbol a learning is anchored to was renamed; lore verify --fix updates the anchor."},
		{ChangeMovedRenamed, "note", "Anchored symbol moved and renamed", "The symbol a learning is anchored to was moved and renamed; lore verify --fix updates the anchor."},
		{ChangeLinesShifted, "note", "Anchored lines shifted", "The lines a learning is anchored to moved within the file; lore verify --fix updates the anchor."},
		{ChangeReformatted, "note", "Anchored code reformatted", "Only formatting or comments changed in the code a learning is anchored to."},
		{ChangeNone, "note", "Anchor holds", "The anchored code is unchanged."},
	}
}

func ruleName(c Change) string {
	var b strings.Builder
	up := true
	for _, r := range string(c) {
		if r == '-' || r == '+' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// WriteSARIF writes rs as a SARIF 2.1.0 log for code scanning: one rule per
// change kind, one result per drifted or invalid anchor (level warning or
// error), located at the anchored code.
func WriteSARIF(w io.Writer, rs []Result, opts SARIFOptions) error {
	lp := opts.LearningPath
	if lp == nil {
		lp = defaultLearningPath
	}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "lore", Version: opts.ToolVersion,
		InformationURI: "https://github.com/lorehq/lore"}}, Results: []sarifResult{}}
	rules := sarifRules()
	index := map[Change]int{}
	for i, r := range rules {
		index[r.change] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: string(r.change), Name: ruleName(r.change),
			ShortDescription: sarifText{r.short}, FullDescription: sarifText{r.full}, DefaultConfiguration: sarifConfig{r.level}})
	}
	for _, r := range rs {
		level := "note"
		switch r.Status {
		case Drifted:
			level = "warning"
		case Invalid:
			level = "error"
		default:
			if !opts.IncludeValid || r.Change == ChangeNone {
				continue
			}
		}
		i, ok := index[r.Change]
		if !ok {
			i = index[ChangeBodyChanged]
		}
		p, s, e := region(r, lp)
		state := ""
		if opts.Compared {
			state = "new"
			if r.Preexisting {
				state = "unchanged"
			}
		}
		run.Results = append(run.Results, sarifResult{
			RuleID: rules[i].change.String(), RuleIndex: i, Level: level,
			Message:       sarifText{message(r, opts.Titles)},
			BaselineState: state,
			Properties: sarifProperties{Learning: r.Learning, Title: title(r, opts.Titles), Anchor: r.Anchor, Spec: r.Spec,
				Status: r.Status, From: r.From, To: r.To, NextStep: NextStep(r)},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: p, URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: s, EndLine: e}}}},
			PartialFingerprints: map[string]string{"loreAnchor/v1": fmt.Sprintf("%s/%d/%s", r.Learning, r.Anchor, r.Spec)},
		})
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("write sarif report: %w", err)
	}
	return nil
}

// String returns the change kind as written in reports.
func (c Change) String() string { return string(c) }
