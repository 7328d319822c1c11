package hexmap_test

import (
	"fmt"
	"strings"

	"github.com/syw-pbem/pbem/hexmap"
	"github.com/syw-pbem/pbem/ruleset"
)

func ExampleParse() {
	const file = `map "Islet" 4x3
terrain
01 ~~~~
02 ~..~
03 ~~~~
provinces
01 ~~~~
02 ~AA~
03 ~~~~
nation isle name=Isle letter=I capitol=Harbour provinces=A tax=300
province A "Isle" owner=isle
city Harbour 0202 port
sea S1 "Sound" hexes=0101-0103 0201 0203 0301 0303 0401-0403
`
	m, err := hexmap.Parse(strings.NewReader(file), "islet.map")
	if err != nil {
		fmt.Println(err)
		return
	}
	tax := ruleset.SYW1752().Taxes
	for _, p := range m.Validate(hexmap.ValidateOptions{TaxValue: tax.Of}) {
		fmt.Println(p.In("islet.map"))
	}
	c, _ := m.City("harbour")
	fmt.Println(c.Name, c.Hex, "province", c.Province, "tax", tax.Of(c.Port, c.River))
	// Output:
	// Harbour 0202 province A tax 300
}

func ExampleParse_errors() {
	_, err := hexmap.Parse(strings.NewReader("map x 2x1\nterrain\n01 .x\ncity Nowhere 0105 harbour\n"), "bad.map")
	fmt.Println(err)
	// Output:
	// bad.map:3: hex 0201: read 'x', expected a terrain character: . clear, r rough, w woods, ^ mountain, ~ sea
	// bad.map:4: hex 0105 is off the map, expected columns 01–02 and rows 01–01
}
