package testtmp

import "syscall"

// memoryFS reports whether dir is a tmpfs mounted without noexec (the
// tests run binaries from their temporary folders).
func memoryFS(dir string) bool {
	const tmpfsMagic, stNoExec = 0x01021994, 0x8
	var s syscall.Statfs_t
	if syscall.Statfs(dir, &s) != nil {
		return false
	}
	return s.Type == tmpfsMagic && s.Flags&stNoExec == 0
}
