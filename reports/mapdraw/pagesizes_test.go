package mapdraw

import (
	"strings"
	"testing"
)

func TestPageSizesListsEveryKnownSize(t *testing.T) {
	for _, s := range PageSizes() {
		if _, ok := pageSizes[strings.ToUpper(s)]; !ok {
			t.Errorf("PageSizes lists %s, which Render does not know", s)
		}
	}
	if len(PageSizes()) != len(pageSizes) || KnownPageSize("B5") {
		t.Errorf("PageSizes and Render's sizes differ")
	}
}
