import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../../scraper/stack/index.ts';
import { expectRole, itFindsRoles, type TraceCase } from './helpers.ts';

/**
 * Traces printed by real runs here: JUnit 5 (console launcher XML report) and plain `java` on
 * a small com.example.billing project; the Kotlin/Spring one follows Gradle's printed shape.
 */
const JUNIT_NEGATIVE_LINE = `java.lang.IllegalArgumentException: negative line: -2
\tat com.example.billing.Invoice$Pricer.price(Invoice.java:27)
\tat java.base/java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:197)
\tat java.base/java.util.AbstractList$RandomAccessSpliterator.forEachRemaining(AbstractList.java:720)
\tat java.base/java.util.stream.AbstractPipeline.copyInto(AbstractPipeline.java:509)
\tat java.base/java.util.stream.AbstractPipeline.wrapAndCopyInto(AbstractPipeline.java:499)
\tat java.base/java.util.stream.ReduceOps$ReduceOp.evaluateSequential(ReduceOps.java:921)
\tat java.base/java.util.stream.AbstractPipeline.evaluate(AbstractPipeline.java:234)
\tat java.base/java.util.stream.ReferencePipeline.reduce(ReferencePipeline.java:657)
\tat com.example.billing.Invoice.total(Invoice.java:14)
\tat com.example.billing.InvoiceJUnitTest.negativeLine(InvoiceJUnitTest.java:18)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)`;

const JUNIT_CAUSED_BY = `java.lang.IllegalStateException: bad amount: x12
\tat com.example.billing.Invoice.parseAmount(Invoice.java:21)
\tat com.example.billing.InvoiceJUnitTest.parseWrapped(InvoiceJUnitTest.java:23)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
Caused by: java.lang.NumberFormatException: For input string: "x12"
\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)
\tat java.base/java.lang.Integer.parseInt(Integer.java:668)
\tat java.base/java.lang.Integer.parseInt(Integer.java:786)
\tat com.example.billing.Invoice.parseAmount(Invoice.java:19)
\t... 4 more`;

const JUNIT_ASSERTION = `org.opentest4j.AssertionFailedError: expected: <4> but was: <3>
\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
\tat org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)
\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)
\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)
\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:145)
\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:531)
\tat com.example.billing.InvoiceJUnitTest.totalIsSum(InvoiceJUnitTest.java:13)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)`;

const JUNIT_NESTED_CLASS = `org.opentest4j.AssertionFailedError: empty invoice total ==> expected: <1> but was: <0>
\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
\tat org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)
\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)
\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)
\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:563)
\tat com.example.billing.InvoiceJUnitTest$WhenEmpty.totalIsZero(InvoiceJUnitTest.java:30)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)`;

const LAMBDA_AND_CAUSE = `Exception in thread "main" java.lang.IllegalStateException: bad amount: x12
\tat com.example.billing.Invoice.parseAmount(Invoice.java:21)
\tat com.example.billing.InvoiceTest.lambda$parsesAmount$0(InvoiceTest.java:13)
\tat com.example.billing.InvoiceTest.parsesAmount(InvoiceTest.java:14)
\tat com.example.billing.InvoiceTest.main(InvoiceTest.java:33)
Caused by: java.lang.NumberFormatException: For input string: "x12"
\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)
\tat java.base/java.lang.Integer.parseInt(Integer.java:668)
\tat java.base/java.lang.Integer.parseInt(Integer.java:786)
\tat com.example.billing.Invoice.parseAmount(Invoice.java:19)
\t... 3 more`;

const SUPPRESSED = `Exception in thread "main" java.lang.RuntimeException: main failure
\tat com.example.billing.InvoiceTest.suppressed(InvoiceTest.java:23)
\tat com.example.billing.InvoiceTest.main(InvoiceTest.java:35)
\tSuppressed: java.lang.IllegalArgumentException: negative line: -1
\t\tat com.example.billing.Invoice$Pricer.price(Invoice.java:27)
\t\tat java.base/java.util.stream.ReferencePipeline$3$1.accept(ReferencePipeline.java:197)
\t\tat java.base/java.util.AbstractList$RandomAccessSpliterator.forEachRemaining(AbstractList.java:720)
\t\tat java.base/java.util.stream.AbstractPipeline.copyInto(AbstractPipeline.java:509)
\t\tat java.base/java.util.stream.AbstractPipeline.wrapAndCopyInto(AbstractPipeline.java:499)
\t\tat java.base/java.util.stream.ReduceOps$ReduceOp.evaluateSequential(ReduceOps.java:921)
\t\tat java.base/java.util.stream.AbstractPipeline.evaluate(AbstractPipeline.java:234)
\t\tat java.base/java.util.stream.ReferencePipeline.reduce(ReferencePipeline.java:657)
\t\tat com.example.billing.Invoice.total(Invoice.java:14)
\t\tat com.example.billing.InvoiceTest.suppressed(InvoiceTest.java:24)
\t\t... 1 more`;

const ASSERTION_IN_TEST = `Exception in thread "main" java.lang.AssertionError: expected: <4> but was: <3>
\tat com.example.billing.InvoiceTest.assertion(InvoiceTest.java:19)
\tat com.example.billing.InvoiceTest.main(InvoiceTest.java:34)`;

const KOTLIN_GRADLE = `java.lang.IllegalStateException: order 7 is closed
\tat com.example.orders.OrderServiceKt.requireOpen(OrderService.kt:12) ~[main/:na]
\tat com.example.orders.OrderService.close(OrderService.kt:30) ~[main/:na]
\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method) ~[na:na]
\tat java.base@17.0.15/java.lang.reflect.Method.invoke(Method.java:569)
\tat app//com.example.orders.OrderServiceTest.closesOrder(OrderServiceTest.kt:18)
\tat org.springframework.test.context.junit.jupiter.SpringExtension.interceptTestMethod(SpringExtension.java:166)`;

type Case = TraceCase;

const cases: Case[] = [
  {
    name: 'JUnit exception inside a stream: failure in the nested class, test method below it',
    trace: JUNIT_NEGATIVE_LINE,
    failure: {
      file: 'com/example/billing/Invoice.java',
      line: 27,
      function: 'Invoice$Pricer.price',
      frame_index: 0,
    },
    test: {
      file: 'com/example/billing/InvoiceJUnitTest.java',
      line: 18,
      function: 'InvoiceJUnitTest.negativeLine',
      frame_index: 9,
    },
  },
  {
    name: 'JUnit Caused by: failure is the root cause frame, not the rethrow',
    trace: JUNIT_CAUSED_BY,
    failure: {
      file: 'com/example/billing/Invoice.java',
      line: 19,
      function: 'Invoice.parseAmount',
      frame_index: 8,
    },
    test: {
      file: 'com/example/billing/InvoiceJUnitTest.java',
      line: 23,
      function: 'InvoiceJUnitTest.parseWrapped',
      frame_index: 1,
    },
  },
  {
    name: 'JUnit assertEquals in the test itself: no failure frame',
    trace: JUNIT_ASSERTION,
    hints: { testName: 'totalIsSum()', testFullName: 'com.example.billing.InvoiceJUnitTest.totalIsSum' },
    failure: null,
    test: {
      file: 'com/example/billing/InvoiceJUnitTest.java',
      line: 13,
      function: 'InvoiceJUnitTest.totalIsSum',
      frame_index: 6,
    },
  },
  {
    name: 'JUnit @Nested class: test frame in Outer$Inner, file of the outer class',
    trace: JUNIT_NESTED_CLASS,
    hints: { testName: 'totalIsZero()' },
    failure: null,
    test: {
      file: 'com/example/billing/InvoiceJUnitTest.java',
      line: 30,
      function: 'InvoiceJUnitTest$WhenEmpty.totalIsZero',
      frame_index: 5,
    },
  },
  {
    name: 'lambda in the test and a cause: hint picks the test method over main and the lambda',
    trace: LAMBDA_AND_CAUSE,
    hints: { testName: 'parsesAmount' },
    failure: {
      file: 'com/example/billing/Invoice.java',
      line: 19,
      function: 'Invoice.parseAmount',
      frame_index: 7,
    },
    test: {
      file: 'com/example/billing/InvoiceTest.java',
      line: 14,
      function: 'InvoiceTest.parsesAmount',
      frame_index: 2,
    },
  },
  {
    name: 'Suppressed: exceptions never supply the failure',
    trace: SUPPRESSED,
    hints: { testName: 'suppressed' },
    failure: null,
    test: {
      file: 'com/example/billing/InvoiceTest.java',
      line: 23,
      function: 'InvoiceTest.suppressed',
      frame_index: 0,
    },
  },
  {
    name: 'AssertionError thrown by the test method itself',
    trace: ASSERTION_IN_TEST,
    hints: { testFullName: 'com.example.billing.InvoiceTest.assertion' },
    failure: null,
    test: {
      file: 'com/example/billing/InvoiceTest.java',
      line: 19,
      function: 'InvoiceTest.assertion',
      frame_index: 0,
    },
  },
  {
    name: 'Kotlin file-level function, logback tails, app// and module@version prefixes',
    trace: KOTLIN_GRADLE,
    failure: {
      file: 'com/example/orders/OrderService.kt',
      line: 12,
      function: 'OrderServiceKt.requireOpen',
      frame_index: 0,
    },
    test: {
      file: 'com/example/orders/OrderServiceTest.kt',
      line: 18,
      function: 'OrderServiceTest.closesOrder',
      frame_index: 4,
    },
  },
];

describe('Java stack traces', () => {
  itFindsRoles(cases, 'java');

  it('keeps printed order in frame_index and marks JDK stream frames as library', () => {
    const locations = parseStackTrace(JUNIT_NEGATIVE_LINE);
    expect(locations.map((l) => l.frame_index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(locations.map((l) => l.library)).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(locations[1]).toMatchObject({
      file: 'java/util/stream/ReferencePipeline.java',
      line: 197,
      function: 'ReferencePipeline$3$1.accept',
      column: null,
      snippet: null,
    });
  });

  it('skips "... N more" and keeps both exceptions of a Caused by chain', () => {
    const locations = parseStackTrace(JUNIT_CAUSED_BY);
    expect(locations).toHaveLength(9);
    expect(locations[5]).toMatchObject({
      file: 'java/lang/NumberFormatException.java',
      line: 67,
      library: true,
    });
  });

  it('marks JUnit assertion frames as library', () => {
    const locations = parseStackTrace(JUNIT_ASSERTION);
    expect(locations.slice(0, 6).every((l) => l.library)).toBe(true);
    expect(locations[0]?.file).toBe('org/junit/jupiter/api/AssertionFailureBuilder.java');
  });

  it('gives Native Method frames a class-derived path and no line', () => {
    const native = parseStackTrace(KOTLIN_GRADLE)[2];
    expect(native).toMatchObject({
      file: 'jdk/internal/reflect/NativeMethodAccessorImpl.java',
      line: null,
      function: 'NativeMethodAccessorImpl.invoke0',
      library: true,
      role: 'frame',
    });
  });

  it('treats Spring frames as library by default and project prefixes as extra knowledge', () => {
    const locations = parseStackTrace(KOTLIN_GRADLE, { projectPrefixes: ['com.example'] });
    expect(locations[5]).toMatchObject({ library: true, function: 'SpringExtension.interceptTestMethod' });
    expect(locations.find((l) => l.role === 'failure')?.function).toBe('OrderServiceKt.requireOpen');
  });

  it('finds no failure when no frame is under the given project prefixes', () => {
    const locations = parseStackTrace(JUNIT_NEGATIVE_LINE, { projectPrefixes: ['org.acme'] });
    expect(locations.filter((l) => l.role === 'failure')).toEqual([]);
  });

  it('accepts extra library prefixes', () => {
    const locations = parseStackTrace(KOTLIN_GRADLE, {
      libraryPrefixes: ['com.example.orders.OrderServiceKt'],
    });
    expect(locations[0]?.library).toBe(true);
    expectRole(locations, 'failure', {
      file: 'com/example/orders/OrderService.kt',
      line: 30,
      function: 'OrderService.close',
      frame_index: 1,
    });
  });
});
