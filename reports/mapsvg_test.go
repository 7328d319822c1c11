package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syw-pbem/pbem/ruleset"
	"github.com/syw-pbem/pbem/scenario"
)

var svgOut = flag.String("svg-out", "", "write the SVG maps TestMapSVG draws into this folder, to look at")

// TestMapSVG draws a nation's and the referee's map of the default
// scenario's opening as SVG images: well-formed, free of script, style and
// external references, with a hex number in land hexes, rivers, roads,
// the cities by name, the counters the report's map page shows — and, on
// a nation's, no ID of a foreign force its report does not name — and the
// key.
func TestMapSVG(t *testing.T) {
	t.Parallel()
	sc, err := scenario.Load("../scenarios/default")
	if err != nil {
		t.Fatal(err)
	}
	rules := ruleset.SYW1752()
	st, err := sc.InitialState("syw", rules.ID)
	if err != nil {
		t.Fatal(err)
	}
	md, err := Build(Input{Map: sc.Map, Rules: rules, State: st, Nation: "eisenmark"})
	if err != nil {
		t.Fatal(err)
	}
	var nation, referee bytes.Buffer
	if err := NationMapSVG(&nation, md, sc.Map, 1400); err != nil {
		t.Fatal(err)
	}
	rm, err := BuildReferee(RefereeInput{Map: sc.Map, Rules: rules, State: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := RefereeMapSVG(&referee, rm, sc.Map, 1400); err != nil {
		t.Fatal(err)
	}
	if *svgOut != "" {
		os.WriteFile(filepath.Join(*svgOut, "nation.svg"), nation.Bytes(), 0o644)
		os.WriteFile(filepath.Join(*svgOut, "referee.svg"), referee.Bytes(), 0o644)
	}
	rj, err := json.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	report := string(rj)
	for name, b := range map[string][]byte{"nation": nation.Bytes(), "referee": referee.Bytes()} {
		texts := svgTexts(t, b)
		all := strings.Join(texts, "|")
		for _, want := range []string{sc.Map.Cities[0].Name, "0812", "river (along hexsides)", "road (hex centre to hex centre)", "battle or encounter this month"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s's map lacks %q", name, want)
			}
		}
		if !bytes.Contains(b, []byte(`stroke="#2668c8"`)) || !bytes.Contains(b, []byte(`stroke="#965420"`)) {
			t.Errorf("%s's map draws no rivers or no roads", name)
		}
		for _, f := range st.Forces {
			shown := regexp.MustCompile(`(^|[|>\s])` + regexp.QuoteMeta(string(f.ID)) + `( [SMLH])?([|:]|$)`).MatchString(all)
			switch {
			case name == "referee" && !shown:
				t.Errorf("the referee's map lacks %s", f.ID)
			case name == "nation" && f.Nation == "eisenmark" && f.Aboard == "" && !shown:
				t.Errorf("eisenmark's map lacks its own %s", f.ID)
			case name == "nation" && f.Nation != "eisenmark" && shown && !strings.Contains(report, `"`+string(f.ID)+`"`):
				t.Errorf("eisenmark's map shows %s's %s, which its report does not", f.Nation, f.ID)
			}
			for _, ld := range f.Leaders {
				if name == "nation" && f.Nation != "eisenmark" && (strings.Contains(all, ld.ID) || strings.Contains(all, ld.Name)) && !strings.Contains(report, ld.Name) {
					t.Errorf("eisenmark's map names %s's general %s", f.Nation, ld.Name)
				}
			}
		}
	}
	if !strings.Contains(strings.Join(svgTexts(t, nation.Bytes()), "|"), "foreign force: size class only") {
		t.Error("the nation's key does not explain foreign forces")
	}
}

// svgTexts checks b is well-formed SVG with no script, style, foreign
// object, event handler or external reference, and returns its text.
func svgTexts(t *testing.T, b []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var texts []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			switch x.Name.Local {
			case "script", "style", "foreignObject", "image", "use", "a":
				t.Fatalf("the image has a <%s>", x.Name.Local)
			}
			for _, a := range x.Attr {
				if strings.HasPrefix(a.Name.Local, "on") || a.Name.Local == "href" || a.Name.Local == "style" || strings.Contains(a.Value, "url(") {
					t.Fatalf("the image has %s=%q on <%s>", a.Name.Local, a.Value, x.Name.Local)
				}
			}
		case xml.CharData:
			texts = append(texts, string(x))
		}
	}
	return texts
}
