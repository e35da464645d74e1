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

// Package junit is the JUnit XML that CI systems read (Jenkins, GitLab, GitHub's test
// reporters): a testsuites root, a testsuite per run or comparison, a testcase per check.
package junit

import "encoding/xml"

// Suites is the XML root, testsuites.
type Suites struct {
	XMLName xml.Name `xml:"testsuites"`
	Suites  []Suite  `xml:"testsuite"`
}

// Suite is one testsuite: a run, a sweep or a comparison.
type Suite struct {
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Time       string     `xml:"time,attr"`
	Timestamp  string     `xml:"timestamp,attr,omitempty"`
	Properties []Property `xml:"properties>property,omitempty"`
	Cases      []Case     `xml:"testcase"`
}

// Property is one of a suite's name-value pairs.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is one testcase, with a failure (a gate missed) or an error (nothing measured).
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *Problem `xml:"failure,omitempty"`
	Error     *Problem `xml:"error,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Problem is a case's failure or error.
type Problem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Marshal is s as a JUnit file, its counts of tests, failures and errors taken from its cases.
func Marshal(s Suite) ([]byte, error) {
	s.Tests, s.Failures, s.Errors = len(s.Cases), 0, 0
	for _, c := range s.Cases {
		if c.Failure != nil {
			s.Failures++
		}
		if c.Error != nil {
			s.Errors++
		}
	}
	b, err := xml.MarshalIndent(Suites{Suites: []Suite{s}}, "", "  ")
	return append([]byte(xml.Header), append(b, '\n')...), err
}
