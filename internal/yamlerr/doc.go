// Package yamlerr turns the errors of gopkg.in/yaml.v3 into short messages
// for people: the line apart, without yaml's prefixes, in valid UTF-8. The
// learning files and .lore/config.yaml report their YAML errors through it.
package yamlerr
