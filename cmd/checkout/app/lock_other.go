//go:build !unix

package app

import "os"

// tryLock cannot lock on this system: the data dir is not guarded.
func tryLock(*os.File) (held bool, err error) { return false, nil }
