package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/syw-pbem/pbem/internal/mailconn"
)

// Password is secret text. Every way of printing it — fmt's verbs, slog,
// YAML, JSON — shows "********" (or "" when empty); only Reveal returns the
// text. It is mailconn.Password, the type the intake and the outbox take.
type Password = mailconn.Password

// A Secret is what the outbox reads its password from at each pass.
var _ mailconn.Secret = Secret{}

// Secret is a password given one of three ways; exactly one must be set.
type Secret struct {
	// Password is the password itself. For the embedded loopback mode and
	// for nations' initial passwords; never for an external IMAP or SMTP
	// account.
	Password Password `yaml:"password,omitempty"`

	// PasswordFile names a file whose first line is the password; a
	// relative name is resolved against the config file's directory.
	PasswordFile string `yaml:"password_file,omitempty"`

	// PasswordEnv names an environment variable holding the password.
	PasswordEnv string `yaml:"password_env,omitempty"`

	dir string // the config file's directory, set by Parse
}

// IsSet reports whether any of the three ways is given.
func (s Secret) IsSet() bool { return s.Password != "" || s.PasswordFile != "" || s.PasswordEnv != "" }

// Value reads the password from wherever it is given. The file's first line
// is used, without its line ending; surrounding spaces are kept.
func (s Secret) Value() (Password, error) {
	switch {
	case s.Password != "":
		return s.Password, nil
	case s.PasswordFile != "":
		name := s.PasswordFile
		if !filepath.IsAbs(name) && s.dir != "" {
			name = filepath.Join(s.dir, name)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("password_file: %w", err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			return "", fmt.Errorf("password_file %s: the first line is empty", name)
		}
		return Password(line), nil
	case s.PasswordEnv != "":
		v, ok := os.LookupEnv(s.PasswordEnv)
		if !ok {
			return "", fmt.Errorf("password_env: environment variable %s is not set", s.PasswordEnv)
		}
		if v == "" {
			return "", fmt.Errorf("password_env: environment variable %s is empty", s.PasswordEnv)
		}
		return Password(v), nil
	}
	return "", fmt.Errorf("no password given: set password_file or password_env (or password, where allowed)")
}

// String returns the whole config as YAML with every password masked: safe
// to log or show (`pbem config`).
func (c *Config) String() string {
	out, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Sprintf("config: cannot print: %v", err)
	}
	return string(out)
}
