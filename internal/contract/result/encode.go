/*
Copyright 2026 The daprbench Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package result

// CodesOf returns the return codes of a variant over its runs.
func (s *Summary) CodesOf(v Variant) map[string]int64 {
	total := map[string]int64{}
	for _, r := range s.Runs {
		if r.Variant == v {
			for code, n := range r.Codes {
				total[code] += n
			}
		}
	}
	return total
}

func truncate(msg string, n int) string {
	r := []rune(msg)
	if len(r) <= n {
		return msg
	}
	return string(r[:n-1]) + "…"
}
