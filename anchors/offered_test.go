package anchors_test

import (
	"testing"

	"github.com/lorehq/lore/anchors"
)

// Where relocation doubts, the candidates it lists hold each place a
// reviewer would weigh, so that the person can take one with anchor
// accept --to. Each case is a scenario of testdata/anchors whose want
// says the anchor is not followed, verified with the files its change
// touched as lore verify --staged knows them (Options.Changed).
func TestDoubtsOffered(t *testing.T) {
	for _, tc := range []struct {
		scenario, spec string
		want           []string // full names among the candidates (twice: two overloads)
	}{
		// A property split in two: both halves.
		{"python-copied-class-split", "pkg/data/paired_text_data.py::PairedTextData::text_tensor_name",
			[]string{"pkg/data/paired_text_data.py::PairedTextData::source_text_name", "pkg/data/paired_text_data.py::PairedTextData::target_text_name"}},
		// A test class split in three: the parts.
		{"java-split-test-class", "src/test/java/org/example/rules/CollectorTest.java::CollectorTest::UsesCollectorCheckThat",
			[]string{"src/test/java/org/example/rules/CollectorTest.java::CollectorTest::CheckMatcherThatFailsWithoutProvidedReason",
				"src/test/java/org/example/rules/CollectorTest.java::CollectorTest::CheckTwoMatchersThatFail"}},
		// Code and header parted: where the code went and the delegate
		// with the header.
		{"java-overload-took-header", "src/main/java/org/example/Checks.java::Checks::expectThrows",
			[]string{"src/main/java/org/example/Checks.java::Checks::assertThrows", "src/main/java/org/example/Checks.java::Checks::assertThrows"}},
		{"java-pulled-up-delegate", "src/main/java/org/example/gen/LifecycleMethod.java::LifecycleMethod::isReactiveSession",
			[]string{"src/main/java/org/example/gen/MetaEntity.java::MetaEntity::usingReactiveSessionAccess",
				"src/main/java/org/example/gen/AnnotatedMethod.java::AnnotatedMethod::isReactiveSessionAccess"}},
		// The calls went to the renamed method, the code to a new one
		// beside it: both.
		{"java-calls-and-code-parted", "src/main/java/org/example/store/cache/PageWriteCache.java::PageWriteCache::getAllocatedPages",
			[]string{"src/main/java/org/example/store/cache/PageWriteCache.java::PageWriteCache::getExclusiveWriteCachePagesSize",
				"src/main/java/org/example/store/cache/PageWriteCache.java::PageWriteCache::getWriteCacheSize"}},
		// A set-up method pulled up with a parameter, a new set-up with
		// the old header calling it: the pulled-up code and the new
		// set-up.
		{"java-pulled-up-setup-delegate", "src/test/java/org/example/sandbox/ProfileAccessTest.java::ProfileAccessTest::addSandboxStorage",
			[]string{"src/test/java/org/example/sandbox/BaseSandboxTest.java::BaseSandboxTest::addSandboxStorage",
				"src/test/java/org/example/sandbox/ProfileAccessTest.java::ProfileAccessTest::setup"}},
		{"java-pulled-up-setup-delegate", "src/test/java/org/example/sandbox/ProfileQueryTest.java::ProfileQueryTest::addSandboxStorageAndCreateTestData",
			[]string{"src/test/java/org/example/sandbox/BaseSandboxTest.java::BaseSandboxTest::addSandboxStorage",
				"src/test/java/org/example/sandbox/ProfileQueryTest.java::ProfileQueryTest::setup"}},
		// An identical copy outside the hierarchy, a near one up it.
		{"java-pulled-up-into-interface", "src/main/java/org/example/ast/MethodDecl.java::MethodDecl::isStatic",
			[]string{"src/main/java/org/example/ast/ExecutableDecl.java::ExecutableDecl::isStatic",
				"src/main/java/org/example/ast/VariableId.java::VariableId::isStatic"}},
		// The same code under the old name in a new file and renamed in
		// the file git paired with the old one: both.
		{"kotlin-copy-keeps-name-file-keeps-code", "src/test/kotlin/org/example/todo/data/FakeDataSource.kt::FakeDataSource::getTasks",
			[]string{"src/test/kotlin/org/example/todo/data/FakeTasksDao.kt::FakeTasksDao::getTasks",
				"src/test/kotlin/org/example/todo/data/FakeNetworkDataSource.kt::FakeNetworkDataSource::loadTasks"}},
		// Methods rewritten as they were renamed, too little of their
		// code kept to be found: the new method in their type whose name
		// is like theirs.
		{"java-rewritten-under-a-like-name", "src/main/java/org/example/audit/AuditLogService.java::AuditLogService::queryTaskEventLogs",
			[]string{"src/main/java/org/example/audit/AuditLogService.java::AuditLogService::queryLogs"}},
		{"java-rewritten-under-a-like-name", "src/main/java/org/example/audit/AuditLogService.java::AuditLogService::queryJobRunLogs",
			[]string{"src/main/java/org/example/audit/AuditLogService.java::AuditLogService::queryLogs"}},
		{"java-rewritten-under-a-like-name", "src/main/java/org/example/audit/archive/SpaceUtils.java::SpaceUtils::freeSpaceByOs",
			[]string{"src/main/java/org/example/audit/archive/SpaceUtils.java::SpaceUtils::getFreeSpace"}},
		// Interface methods moved into the type of a parameter and
		// renamed, bodiless: the new method there, its name like the old.
		{"java-moved-into-parameter-type-rewritten", "src/main/java/org/example/graph/ops/EntityReads.java::EntityReads::nodeHasLabel",
			[]string{"src/main/java/org/example/graph/cursor/NodeView.java::NodeView::hasLabel"}},
		{"java-moved-into-parameter-type-rewritten", "src/main/java/org/example/graph/ops/EntityReads.java::EntityReads::nodeGetProperty",
			[]string{"src/main/java/org/example/graph/cursor/EntityView.java::EntityView::getProperty"}},
		// An overload inlined into its renamed sibling, verified alone:
		// the method that took the sibling's place and parameters is
		// the sibling's, offered only.
		{"java-overloads-merged-into-renamed", "src/main/java/org/example/spans/Parser.java::Parser::getReferences(Slice,Header,Stringency)",
			[]string{"src/main/java/org/example/spans/Parser.java::Parser::getSpans"}},
		// A method made abstract, kept on its declaration: where its
		// code went, the old body under another name and the
		// subclass's implementation.
		{"made-abstract", "store/DataInput.java::DataInput::skipBytes",
			[]string{"store/DataInput.java::DataInput::skipBytesSlowly", "store/InputStreamDataInput.java::InputStreamDataInput::skipBytes"}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			found, r := offered(t, tc.scenario, tc.spec)
			for _, w := range tc.want {
				if found[w] == 0 {
					t.Errorf("%s not among the candidates %v", w, r.Candidates)
				}
				found[w]--
			}
		})
	}
}

// offered verifies spec, anchored before the change of scenario (in
// testdata/anchors), after it, with history and the change's files; it
// fails the test if the anchor is followed, and returns how often each
// full name is among the candidates, and the result. An anchor kept on
// its own symbol is not followed.
func offered(t *testing.T, scenario, spec string) (map[string]int, anchors.Result) {
	t.Helper()
	path := "../testdata/anchors/" + scenario + ".txtar"
	before, after := scenarioSides(t, path)
	r := verify(t, after, anchors.Options{Base: before, Changed: scenarioChanged(t, path)}, baseline(t, before, spec))
	if r.To != nil && r.To.FQName != r.From.FQName {
		t.Fatalf("followed to %s (%.2f): %s", r.To.FQName, r.Confidence, r.Reason)
	}
	found := map[string]int{}
	for _, c := range r.Candidates {
		found[c.Location.FQName]++
	}
	return found, r
}

// Of the candidates listed, the first is the one a reviewer takes when
// anything tells them apart: anchor accept ID/N --to 1 takes it.
func TestDoubtsRanked(t *testing.T) {
	for _, tc := range []struct{ scenario, spec, first string }{
		// Wrappers alike but for the call they wrap, which the renamed
		// one still makes.
		{"java-wrappers-renamed-beside-alike", "src/main/java/org/example/log/Logger.java::Logger::w",
			"src/main/java/org/example/log/Logger.java::Logger::warn"},
		{"java-wrappers-renamed-beside-alike", "src/main/java/org/example/log/Logger.java::Logger::d",
			"src/main/java/org/example/log/Logger.java::Logger::debug"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, r := offered(t, tc.scenario, tc.spec)
			if len(r.Candidates) == 0 || r.Candidates[0].Location.FQName != tc.first {
				t.Errorf("first candidate is not %s: %v", tc.first, r.Candidates)
			}
		})
	}
}

// A relocation followed with its code changed lists the candidates close
// behind the one it followed, but not those another vanished symbol
// claims nor test code for a note on production code: the person who
// re-reads the drift takes one with anchor accept --to when lore
// followed the wrong one.
func TestFollowedListsCloseRivals(t *testing.T) {
	for _, tc := range []struct {
		scenario, spec, to string
		want, not          []string // full names among the candidates, and not
	}{
		// Getters pulled up, a new sibling holding the same getters as
		// constants: it is listed.
		{"java-getters-pulled-up-side-by-side", "src/main/java/org/example/part/HashPartitioner.java::HashPartitioner::getPartition",
			"src/main/java/org/example/part/RangePartitioner.java::RangePartitioner::getPartition",
			[]string{"src/main/java/org/example/part/SinglePartitioner.java::SinglePartitioner::getPartition"}, nil},
		// A production method renamed, a test fake copying it: not.
		{"rival-siblings", "src/main/java/org/example/RetryPolicy.java::RetryPolicy::computeBackoff",
			"src/main/java/org/example/RetryPolicy.java::RetryPolicy::backoffFor",
			nil, []string{"src/test/java/org/example/FakeRetryPolicy.java::FakeRetryPolicy::backoffFor"}},
		// Siblings renamed together: each takes its own, the other is
		// claimed by its sibling and not listed.
		{"rival-siblings", "src/it/java/org/checkstyle/XpathRegressionOneStatementPerLineTest.java::XpathRegressionOneStatementPerLineTest::testOne",
			"src/it/java/org/checkstyle/XpathRegressionOneStatementPerLineTest.java::XpathRegressionOneStatementPerLineTest::testClassFields",
			nil, []string{"src/it/java/org/checkstyle/XpathRegressionOneStatementPerLineTest.java::XpathRegressionOneStatementPerLineTest::testForLoopBlock"}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			path := "../testdata/anchors/" + tc.scenario + ".txtar"
			before, after := scenarioSides(t, path)
			r := verify(t, after, anchors.Options{Base: before, Changed: scenarioChanged(t, path)}, baseline(t, before, tc.spec))
			if r.To == nil || r.To.FQName != tc.to || r.Status != anchors.Drifted {
				t.Fatalf("want drifted, followed to %s; got %s %v: %s", tc.to, r.Status, r.To, r.Reason)
			}
			listed := map[string]bool{}
			for _, c := range r.Candidates {
				listed[c.Location.FQName] = true
			}
			for _, w := range tc.want {
				if !listed[w] {
					t.Errorf("%s not among the candidates %v", w, r.Candidates)
				}
			}
			for _, n := range tc.not {
				if listed[n] {
					t.Errorf("%s among the candidates %v", n, r.Candidates)
				}
			}
		})
	}
}
