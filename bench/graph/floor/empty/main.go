// Command empty does nothing: the start and exit of a Go program on this
// machine, the first line of bench/graph/floor.py's table.
package main

func main() {}
