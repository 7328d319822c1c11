package engine

import (
	"encoding/json"
	"testing"
)

// FuzzEnvelopeKind checks the envelope's quick read of the kind against a
// full decode: where it answers, it answers what encoding/json reads, so
// a stored event is never taken for another kind.
func FuzzEnvelopeKind(f *testing.F) {
	for _, s := range []string{
		`{"kind":"ForceSplit","Force":"E1","New":"E5"}`, `{"kind":"GarrisonSet"}`, `{"kind":"Force\"Split"}`,
		`{"kind":"Force\u0053plit"}`, `{"kind":"ForceSplit","kind":"GarrisonSet"}`, `{"kind":"`, `{"kind":""}`,
		`{ "kind":"ForceSplit"}`, `{"kind":"ForceSplit","x":{"kind":"GarrisonSet"}}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kind, ok := envelopeKind(data)
		if !ok {
			return
		}
		var k struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(data, &k) != nil {
			return // invalid JSON: the full decode that follows refuses it
		}
		if k.Kind != kind {
			t.Fatalf("%q: quick read %q, full decode %q", data, kind, k.Kind)
		}
	})
}
