package lore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/lorehq/lore/internal/yamlerr"
	"gopkg.in/yaml.v3"
)

// Config is .lore/config.yaml. Every key is optional.
type Config struct {
	// Ignore holds extra gitignore-style patterns for the repository walk.
	Ignore []string `yaml:"ignore"`
	// MaxFileSize skips larger files when indexing (bytes).
	MaxFileSize int64 `yaml:"max_file_size"`
	// LockTimeout bounds the wait for another lore process.
	LockTimeout Duration `yaml:"lock_timeout"`
	// Verify holds verification defaults.
	Verify VerifyConfig `yaml:"verify"`
	// Cochange holds co-change analysis defaults.
	Cochange CochangeConfig `yaml:"cochange"`
}

// VerifyConfig holds verification defaults.
type VerifyConfig struct {
	FailOn              string  `yaml:"fail_on"`
	RelocationThreshold float64 `yaml:"relocation_threshold"`
}

// CochangeConfig holds co-change analysis defaults.
type CochangeConfig struct {
	Since        string  `yaml:"since"`
	MaxCommits   int     `yaml:"max_commits"`
	MaxChangeset int     `yaml:"max_changeset"`
	MinRevs      int     `yaml:"min_revs"`
	MinShared    int     `yaml:"min_shared"`
	MinCoupling  float64 `yaml:"min_coupling"`
	Renames      *bool   `yaml:"renames"`
	ByDay        bool    `yaml:"by_day"`
}

// Duration is a time.Duration written as "10s" in YAML.
type Duration struct{ time.Duration }

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration such as 10s", n.Line, n.Value)
	}
	d.Duration = v
	return nil
}

const defaultConfig = `# lore configuration. Every key is optional; the commented values are the defaults.

# Extra gitignore-style patterns the repository walk skips.
# ignore: []

# Files larger than this many bytes are not indexed.
# max_file_size: 1048576

# How long a command waits for another lore process that holds .lore/db.
# lock_timeout: 10s

# verify:
#   fail_on: invalid            # drifted | invalid | never
#   relocation_threshold: 0.8   # below it a relocation is only a candidate

# cochange:
#   since: 1y                   # window: a date (2024-01-31) or an age (90d, 6m, 2y); default: the year before HEAD
#   max_commits: 0              # 0: no limit
#   max_changeset: 30           # commits touching more files are skipped
#   min_revs: 5
#   min_shared: 5
#   min_coupling: 0.3
#   renames: true
#   by_day: false
`

func readConfig(p string) (Config, error) {
	var c Config
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return c, fmt.Errorf("%s: %s (fix or delete the file)", p, yamlerr.WithLine(err))
	}
	if c.MaxFileSize < 0 {
		return c, fmt.Errorf("%s: max_file_size must not be negative", p)
	}
	if c.Verify.RelocationThreshold < 0 || c.Verify.RelocationThreshold > 1 {
		return c, fmt.Errorf("%s: verify.relocation_threshold must be between 0 and 1", p)
	}
	switch c.Verify.FailOn {
	case "", "drifted", "invalid", "never":
	default:
		return c, fmt.Errorf("%s: verify.fail_on must be drifted, invalid or never", p)
	}
	return c, nil
}
