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

// Package stats holds the small statistics the figures share: Student's t for intervals over
// few repetitions.
package stats

import "math"

// StudentT returns the q-quantile (0.5 < q < 1) of Student's t distribution with df degrees
// of freedom: with few repetitions their spread is itself uncertain, and t widens the
// interval for it (df 2: 4.30 where the normal says 1.96).
func StudentT(q float64, df int) float64 {
	lo, hi := 0.0, 1e4
	for range 100 {
		mid := (lo + hi) / 2
		if tCDF(mid, float64(df)) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// MeanInterval is the mean of xs and its two-sided Student-t interval at confidence: what
// the mean of these repetitions is, not where a further repetition would fall. false with
// fewer than two.
func MeanInterval(xs []float64, confidence float64) (mean, low, high float64, ok bool) {
	n := len(xs)
	for _, x := range xs {
		mean += x
	}
	if n == 0 {
		return 0, 0, 0, false
	}
	mean /= float64(n)
	if n < 2 {
		return mean, mean, mean, false
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := StudentT(1-(1-confidence)/2, n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	return mean, mean - half, mean + half, true
}

// tCDF is P(T ≤ x) for x ≥ 0, by the regularized incomplete beta function.
func tCDF(x, df float64) float64 {
	return 1 - 0.5*incompleteBeta(df/2, 0.5, df/(df+x*x))
}

// incompleteBeta is I_x(a, b), by its continued fraction (Lentz's method).
func incompleteBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - incompleteBeta(b, a, 1-x)
	}
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	f := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range []float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			f *= c * d
		}
		if math.Abs(c*d-1) < 1e-12 {
			break
		}
	}
	return front * f / a
}
