import { describe, expect, it } from "vitest";
import {
  Quantity,
  type QuantityFormat,
  QuantityParseError,
  quantityMilliValue,
  quantityValue,
  tryParseQuantity,
} from "./quantity";

// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go
const q = (i: number | bigint, exponent: number, format: QuantityFormat) => Quantity.of(i, exponent, format);
const maxAllowed = (format: QuantityFormat) => Quantity.of((1n << 63n) - 1n, 0, format);

describe("TestQuantityParseZero", () => {
  it("0 prints as 0", () => expect(Quantity.parse("0").toString()).toBe("0"));
});

describe("TestQuantityParseNonNumericPanic", () => {
  it("rejects Non-Numeric", () => expect(() => Quantity.parse("Non-Numeric")).toThrow(QuantityParseError));
});

describe("TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix", () => {
  for (const v of ["100m", "1Gi"]) {
    it(v, () => {
      const zero = Quantity.parse("0");
      const value = Quantity.parse(v);
      expect(value.add(zero).toString()).toBe(v);
      expect(zero.add(value).toString()).toBe(v);
      expect(value.sub(zero).toString()).toBe(v);
      expect(zero.sub(value).toString()).toBe(value.neg().toString());
    });
  }
});

describe("TestQuantityCmp", () => {
  const table: [string, string, number][] = [
    ["0", "0", 0],
    ["100m", "50m", 1],
    ["50m", "100m", -1],
    ["10000T", "100Gi", 1],
  ];
  it.each(table)("%s vs %s", (x, y, expect_) =>
    expect(Quantity.parse(x).cmp(Quantity.parse(y))).toBe(expect_),
  );
});

// [input, expected quantity]
const parseTable: [string, Quantity][] = [
  ["0", q(0, 0, "DecimalSI")],
  ["0n", q(0, 0, "DecimalSI")],
  ["0u", q(0, 0, "DecimalSI")],
  ["0m", q(0, 0, "DecimalSI")],
  ["0Ki", q(0, 0, "BinarySI")],
  ["0k", q(0, 0, "DecimalSI")],
  ["0Mi", q(0, 0, "BinarySI")],
  ["0M", q(0, 0, "DecimalSI")],
  ["0Gi", q(0, 0, "BinarySI")],
  ["0G", q(0, 0, "DecimalSI")],
  ["0Ti", q(0, 0, "BinarySI")],
  ["0T", q(0, 0, "DecimalSI")],
  ["1", q(1, 0, "DecimalSI")],
  ["1Ki", q(1024, 0, "BinarySI")],
  ["8Ki", q(8 * 1024, 0, "BinarySI")],
  ["7Mi", q(7 * 1024 * 1024, 0, "BinarySI")],
  ["6Gi", q(6 * 1024 * 1024 * 1024, 0, "BinarySI")],
  ["5Ti", q(5 * 1024 ** 4, 0, "BinarySI")],
  ["4Pi", q(4 * 1024 ** 5, 0, "BinarySI")],
  ["3Ei", q(3n * 1024n ** 6n, 0, "BinarySI")],
  ["10Ti", q(10 * 1024 ** 4, 0, "BinarySI")],
  ["100Ti", q(100 * 1024 ** 4, 0, "BinarySI")],
  ["5n", q(5, -9, "DecimalSI")],
  ["4u", q(4, -6, "DecimalSI")],
  ["3m", q(3, -3, "DecimalSI")],
  ["9", q(9, 0, "DecimalSI")],
  ["8k", q(8, 3, "DecimalSI")],
  ["50k", q(5, 4, "DecimalSI")],
  ["7M", q(7, 6, "DecimalSI")],
  ["6G", q(6, 9, "DecimalSI")],
  ["5T", q(5, 12, "DecimalSI")],
  ["40T", q(4, 13, "DecimalSI")],
  ["300T", q(3, 14, "DecimalSI")],
  ["2P", q(2, 15, "DecimalSI")],
  ["1E", q(1, 18, "DecimalSI")],
  ["1E-3", q(1, -3, "DecimalExponent")],
  ["1e3", q(1, 3, "DecimalExponent")],
  ["1E6", q(1, 6, "DecimalExponent")],
  ["1e9", q(1, 9, "DecimalExponent")],
  ["1E12", q(1, 12, "DecimalExponent")],
  ["1e15", q(1, 15, "DecimalExponent")],
  ["1E18", q(1, 18, "DecimalExponent")],
  ["1e14", q(1, 14, "DecimalExponent")],
  ["1e13", q(1, 13, "DecimalExponent")],
  ["100.035k", q(100035, 0, "DecimalSI")],
  ["0.001", q(1, -3, "DecimalSI")],
  ["0.0005k", q(5, -1, "DecimalSI")],
  ["0.005", q(5, -3, "DecimalSI")],
  ["0.05", q(5, -2, "DecimalSI")],
  ["0.5", q(5, -1, "DecimalSI")],
  ["0.00050k", q(5, -1, "DecimalSI")],
  ["0.00500", q(5, -3, "DecimalSI")],
  ["0.05000", q(5, -2, "DecimalSI")],
  ["0.50000", q(5, -1, "DecimalSI")],
  ["0.5e0", q(5, -1, "DecimalExponent")],
  ["0.5e-1", q(5, -2, "DecimalExponent")],
  ["0.5e-2", q(5, -3, "DecimalExponent")],
  ["10.035M", q(10035, 3, "DecimalSI")],
  ["1.2e3", q(12, 2, "DecimalExponent")],
  ["1.3E+6", q(13, 5, "DecimalExponent")],
  ["1.40e9", q(14, 8, "DecimalExponent")],
  ["1.53E12", q(153, 10, "DecimalExponent")],
  ["1.6e15", q(16, 14, "DecimalExponent")],
  ["1.7E18", q(17, 17, "DecimalExponent")],
  ["9.01", q(901, -2, "DecimalSI")],
  ["8.1k", q(81, 2, "DecimalSI")],
  ["7.123456M", q(7123456, 0, "DecimalSI")],
  ["6.987654321G", q(6987654321, 0, "DecimalSI")],
  ["5.444T", q(5444, 9, "DecimalSI")],
  ["40.1T", q(401, 11, "DecimalSI")],
  ["300.2T", q(3002, 11, "DecimalSI")],
  ["2.5P", q(25, 14, "DecimalSI")],
  ["1.01E", q(101, 16, "DecimalSI")],
  ["3.001n", q(4, -9, "DecimalSI")],
  ["1.1E-9", q(2, -9, "DecimalExponent")],
  ["0.0000000001", q(1, -9, "DecimalSI")],
  ["0.0000000005", q(1, -9, "DecimalSI")],
  ["0.00000000050", q(1, -9, "DecimalSI")],
  ["0.5e-9", q(1, -9, "DecimalExponent")],
  ["0.9n", q(1, -9, "DecimalSI")],
  ["0.00000012345", q(124, -9, "DecimalSI")],
  ["0.00000012354", q(124, -9, "DecimalSI")],
  ["9Ei", maxAllowed("BinarySI")],
  ["9223372036854775807Ki", maxAllowed("BinarySI")],
  ["12E", q(12, 18, "DecimalSI")],
  ["100.035Ki", q(10243584, -2, "BinarySI")],
  ["0.5Mi", q(0.5 * 1024 * 1024, 0, "BinarySI")],
  ["0.05Gi", q(536870912, -1, "BinarySI")],
  ["0.025Ti", q(274877906944, -1, "BinarySI")],
  ["0.000000000001Ki", q(2, -9, "DecimalSI")],
  [".001", q(1, -3, "DecimalSI")],
  [".0001k", q(100, -3, "DecimalSI")],
  ["1.", q(1, 0, "DecimalSI")],
  ["1.G", q(1, 9, "DecimalSI")],
];

describe("TestQuantityParse", () => {
  it("rejects the empty string", () => expect(() => Quantity.parse("")).toThrow(QuantityParseError));
  it.each(parseTable)("%s", (input, want) => {
    const got = Quantity.parse(input);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });
  it.each(parseTable)("-%s", (input, want) => {
    const got = Quantity.parse(`-${input}`);
    expect(got.cmp(want.neg())).toBe(0);
    expect(got.format).toBe(want.format);
  });
  it.each(parseTable)("+%s", (input, want) => {
    const got = Quantity.parse(`+${input}`);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });

  const invalid = [
    "1.1.M",
    "1+1.0M",
    "0.1mi",
    "0.1am",
    "aoeu",
    ".5i",
    "1i",
    "-3.01i",
    "-3.01e-",
    "1e4294967297",
    " 1",
    "1 ",
  ];
  it.each(invalid)("rejects %j", (s) => expect(() => Quantity.parse(s)).toThrow(QuantityParseError));

  it("names the string and upstream's reason", () => {
    expect(() => Quantity.parse("aoeu")).toThrow(
      `cannot parse quantity "aoeu": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
    expect(() => Quantity.parse("0.1mi")).toThrow(
      `cannot parse quantity "0.1mi": unable to parse quantity's suffix`,
    );
  });
});

describe("TestInterpretExponentInt32Bounds", () => {
  const cases: [string, boolean][] = [
    ["1e14", true],
    ["1E2147483647", true],
    ["1E-2147483647", true],
    ["1E2147483648", false],
    ["1E-2147483648", false],
    ["1E4294967297", false],
    ["1E8589934592", false],
    ["1E9223372036854775807", false],
    ["1E9223372036854775808", false],
    ["1E6024865272343", false],
  ];
  it.each(cases)("%s", (s, ok) => {
    if (ok) expect(Quantity.parse(s).format).toBe("DecimalExponent");
    else expect(() => Quantity.parse(s)).toThrow(QuantityParseError);
  });
});

describe("TestQuantityCmpInt64AndDec", () => {
  const mostPositive = (1n << 63n) - 1n;
  const mostNegative = -(1n << 63n);
  const table: [Quantity, Quantity, number][] = [
    [q(901, -2, "DecimalSI"), q(901, -2, "DecimalSI"), 0],
    [q(90, -1, "DecimalSI"), q(901, -2, "DecimalSI"), -1],
    [q(901, -2, "DecimalSI"), q(900, -2, "DecimalSI"), 1],
    [q(0, 0, "DecimalSI"), q(0, 0, "DecimalSI"), 0],
    [q(0, 1, "DecimalSI"), q(0, -1, "DecimalSI"), 0],
    [q(0, -1, "DecimalSI"), q(0, 1, "DecimalSI"), 0],
    [q(800, -3, "DecimalSI"), q(1, 0, "DecimalSI"), -1],
    [q(800, -3, "DecimalSI"), q(79, -2, "DecimalSI"), 1],
    [q(mostPositive, 0, "DecimalSI"), q(1, -1, "DecimalSI"), 1],
    [q(mostPositive, 1, "DecimalSI"), q(1, 0, "DecimalSI"), 1],
    [q(mostPositive, 1, "DecimalSI"), q(1, 1, "DecimalSI"), 1],
    [q(mostPositive, 1, "DecimalSI"), q(0, 1, "DecimalSI"), 1],
    [q(mostPositive, -16, "DecimalSI"), q(1, 3, "DecimalSI"), -1],
    [q(mostNegative, 0, "DecimalSI"), q(0, 0, "DecimalSI"), -1],
    [q(mostNegative, -18, "DecimalSI"), q(-1, 0, "DecimalSI"), -1],
    [q(mostNegative, -19, "DecimalSI"), q(-1, 0, "DecimalSI"), 1],
    [q(10n ** 18n, -17, "DecimalSI"), q(1, 1, "DecimalSI"), 0],
    [q(10n ** 18n, -17, "DecimalSI"), q(-10, 0, "DecimalSI"), 1],
    [q(-(10n ** 18n), -17, "DecimalSI"), q(-10, 0, "DecimalSI"), 0],
    [q(10n ** 18n, -17, "DecimalSI"), q(1, 0, "DecimalSI"), 1],
    [q(10n ** 18n + 1n, -17, "DecimalSI"), q(1, 1, "DecimalSI"), 1],
    [q(10n ** 18n - 1n, -17, "DecimalSI"), q(1, 1, "DecimalSI"), -1],
  ];
  it.each(table)("%s cmp %s", (a, b, want) => {
    expect(a.cmp(b)).toBe(want);
    expect(b.cmp(a)).toBe(want === 0 ? 0 : -want);
  });
});

describe("TestQuantityNeg", () => {
  it("negates exactly", () => expect(q(901, -2, "DecimalSI").neg().toString()).toBe("-9010m"));
});

describe("TestQuantityString", () => {
  // [quantity, canonical, alternate spelling]
  const table: [Quantity, string, string][] = [
    [q(1024 * 1024 * 1024, 0, "BinarySI"), "1Gi", "1024Mi"],
    [q(300 * 1024 * 1024, 0, "BinarySI"), "300Mi", "307200Ki"],
    [q(6 * 1024, 0, "BinarySI"), "6Ki", ""],
    [q(1001 * 1024 * 1024 * 1024, 0, "BinarySI"), "1001Gi", "1025024Mi"],
    [q(1024 ** 4, 0, "BinarySI"), "1Ti", "1024Gi"],
    [q(5, 0, "BinarySI"), "5", "5000m"],
    [q(500, -3, "BinarySI"), "500m", "0.5"],
    [q(1, 9, "DecimalSI"), "1G", "1000M"],
    [q(1000, 6, "DecimalSI"), "1G", "0.001T"],
    [q(1000000, 3, "DecimalSI"), "1G", ""],
    [q(1000000000, 0, "DecimalSI"), "1G", ""],
    [q(1, -3, "DecimalSI"), "1m", "1000u"],
    [q(80, -3, "DecimalSI"), "80m", ""],
    [q(1080, -3, "DecimalSI"), "1080m", "1.08"],
    [q(108, -2, "DecimalSI"), "1080m", "1080000000n"],
    [q(10800, -4, "DecimalSI"), "1080m", ""],
    [q(300, 6, "DecimalSI"), "300M", ""],
    [q(1, 12, "DecimalSI"), "1T", ""],
    [q(1, 18, "DecimalSI"), "1E", ""],
    [q(1, 21, "DecimalSI"), "1e21", "1000E"],
    [q(5, 21, "DecimalSI"), "5e21", "5000E"],
    [q(1, 24, "DecimalSI"), "1e24", "1000000E"],
    [q(1, 70, "BinarySI"), "10e69", ""],
    [q(2, 70, "BinarySI"), "20e69", ""],
    [q(1, 72, "BinarySI"), "1e72", ""],
    [q(1234567, 6, "DecimalSI"), "1234567M", ""],
    [q(1234567, -3, "BinarySI"), "1234567m", ""],
    [q(3, 3, "DecimalSI"), "3k", ""],
    [q(1025, 0, "BinarySI"), "1025", ""],
    [q(0, 0, "DecimalSI"), "0", ""],
    [q(0, 0, "BinarySI"), "0", ""],
    [q(1, 9, "DecimalExponent"), "1e9", ".001e12"],
    [q(1, -3, "DecimalExponent"), "1e-3", "0.001e0"],
    [q(1, -9, "DecimalExponent"), "1e-9", "1000e-12"],
    [q(80, -3, "DecimalExponent"), "80e-3", ""],
    [q(300, 6, "DecimalExponent"), "300e6", ""],
    [q(1, 12, "DecimalExponent"), "1e12", ""],
    [q(1, 3, "DecimalExponent"), "1e3", ""],
    [q(3, 3, "DecimalExponent"), "3e3", ""],
    [q(3, 3, "DecimalSI"), "3k", ""],
    [q(0, 0, "DecimalExponent"), "0", "00"],
    [q(1, -9, "DecimalSI"), "1n", ""],
    [q(80, -9, "DecimalSI"), "80n", ""],
    [q(1080, -9, "DecimalSI"), "1080n", ""],
    [q(108, -8, "DecimalSI"), "1080n", ""],
    [q(10800, -10, "DecimalSI"), "1080n", ""],
    [q(1, -6, "DecimalSI"), "1u", ""],
    [q(80, -6, "DecimalSI"), "80u", ""],
    [q(1080, -6, "DecimalSI"), "1080u", ""],
  ];
  it.each(table)("%s → %s", (input, want, alternate) => {
    expect(input.toString()).toBe(want);
    expect(Quantity.parse(want).toString()).toBe(want);
    if (alternate !== "") expect(Quantity.parse(alternate).toString()).toBe(want);
    if (!input.isZero()) expect(input.neg().toString()).toBe(`-${want}`);
  });
});

describe("TestBinarySIPastEiArithmeticRoundTrip", () => {
  it("2^70 prints all its digits and round-trips", () => {
    const big = Quantity.of(1n << 70n, 0, "BinarySI");
    expect(big.toString()).toBe("1180591620717411303424");
    expect(Quantity.parse(big.toString()).cmp(big)).toBe(0);
  });
});

describe("TestBinarySIZeroExponentString", () => {
  it.each([
    [2000, "2000"],
    [-2000, "-2000"],
  ])("%d", (v, want) => expect(q(v, 0, "BinarySI").toString()).toBe(want));
});

describe("TestQuantityStringBelowNano", () => {
  it.each([
    [q(1, -12, "DecimalSI"), "1e-12"],
    [q(1, -10, "DecimalSI"), "100e-12"],
  ])("%s", (input, want) => expect(input.toString()).toBe(want));
});

describe("TestQuantityParseEmit", () => {
  const table: [string, string][] = [
    ["1Ki", "1Ki"],
    ["1Mi", "1Mi"],
    ["1Gi", "1Gi"],
    ["1024Mi", "1Gi"],
    ["1000M", "1G"],
    [".001Ki", "1024m"],
    [".000001Ki", "1024u"],
    [".000000001Ki", "1024n"],
    [".000000000001Ki", "2n"],
  ];
  it.each(table)("%s", (input, want) => {
    expect(Quantity.parse(input).toString()).toBe(want);
    expect(Quantity.parse(`-${input}`).toString()).toBe(`-${want}`);
  });
});

describe("TestNewSet (via Quantity.of)", () => {
  const table: [number, QuantityFormat, string][] = [
    [1, "DecimalSI", "1"],
    [1000, "DecimalSI", "1k"],
    [1234000, "DecimalSI", "1234k"],
    [1024, "BinarySI", "1Ki"],
    [1000000, "DecimalExponent", "1e6"],
    [1024 * 1024, "BinarySI", "1Mi"],
  ];
  it.each(table)("%d %s", (value, format, want) => {
    const got = Quantity.of(value, 0, format);
    expect(got.toString()).toBe(want);
    expect(Quantity.parse(got.toString()).value()).toBe(value);
  });
});

describe("TestMilliNewSet (via Quantity.of)", () => {
  const table: [number, QuantityFormat, string][] = [
    [1, "DecimalSI", "1m"],
    [1000, "DecimalSI", "1"],
    [1234000, "DecimalSI", "1234"],
    [1024, "BinarySI", "1024m"],
    [1000000, "DecimalExponent", "1e3"],
    [1024 * 1024, "BinarySI", "1048576m"],
  ];
  it.each(table)("%d %s", (value, format, want) =>
    expect(Quantity.of(value, -3, format).toString()).toBe(want),
  );
});

describe("TestScaledValue", () => {
  const table: [number, number, number][] = [
    [-9, -9, 1],
    [-9, -6, 1],
    [-9, -3, 1],
    [-9, 0, 1],
    [-6, -9, 1000],
    [-6, -6, 1],
    [-6, -3, 1],
    [-6, 0, 1],
    [-3, -9, 1000 * 1000],
    [-3, -6, 1000],
    [-3, -3, 1],
    [-3, 0, 1],
    [0, -9, 1000 * 1000 * 1000],
    [0, -6, 1000 * 1000],
    [0, -3, 1000],
    [0, 0, 1],
    [2, -2, 100 * 100],
  ];
  it.each(table)("1e%d to scale %d", (from, to, want) =>
    expect(Quantity.of(1, from).scaledValue(to)).toBe(want),
  );
});

describe("TestNegativeValueRoundsAwayFromZero", () => {
  const table: [string, number, number][] = [
    ["-.484785E-7466", -1, -1],
    [".484785E-7466", 1, 1],
    ["-.484785E-1", -1, -49],
    [".484785E-1", 1, 49],
    ["-0.0005", -1, -1],
    ["0.0005", 1, 1],
    ["-1500m", -2, -1500],
    ["1500m", 2, 1500],
    ["-9.5000000001Gi", -10200547329, -10200547328108],
    ["9.5000000001Gi", 10200547329, 10200547328108],
    ["-1", -1, -1000],
    ["1", 1, 1000],
    ["0", 0, 0],
  ];
  it.each(table)("%s", (input, value, milli) => {
    const got = Quantity.parse(input);
    expect(got.value()).toBe(value);
    expect(got.milliValue()).toBe(milli);
  });
});

describe("TestSub", () => {
  const table: [Quantity, Quantity, Quantity][] = [
    [q(10, 0, "DecimalSI"), q(1, 1, "DecimalSI"), q(0, 0, "DecimalSI")],
    [q(10, 0, "DecimalSI"), q(1, 0, "BinarySI"), q(9, 0, "DecimalSI")],
    [q(10, 0, "BinarySI"), q(1, 0, "DecimalSI"), q(9, 0, "BinarySI")],
    [q(0, 0, "DecimalSI"), q(50, 0, "DecimalSI"), q(-50, 0, "DecimalSI")],
    [q(50, 0, "DecimalSI"), q(0, 0, "DecimalSI"), q(50, 0, "DecimalSI")],
    [q(0, 0, "DecimalSI"), q(0, 0, "DecimalSI"), q(0, 0, "DecimalSI")],
  ];
  it.each(table)("%s - %s", (a, b, want) => expect(a.sub(b).cmp(want)).toBe(0));
});

describe("TestAdd", () => {
  const table: [Quantity, Quantity, Quantity][] = [
    [q(10, 0, "DecimalSI"), q(1, 1, "DecimalSI"), q(20, 0, "DecimalSI")],
    [q(10, 0, "DecimalSI"), q(1, 0, "BinarySI"), q(11, 0, "DecimalSI")],
    [q(10, 0, "BinarySI"), q(1, 0, "DecimalSI"), q(11, 0, "BinarySI")],
    [q(0, 0, "DecimalSI"), q(50, 0, "DecimalSI"), q(50, 0, "DecimalSI")],
    [q(50, 0, "DecimalSI"), q(0, 0, "DecimalSI"), q(50, 0, "DecimalSI")],
    [q(0, 0, "DecimalSI"), q(0, 0, "DecimalSI"), q(0, 0, "DecimalSI")],
  ];
  it.each(table)("%s + %s", (a, b, want) => {
    const got = a.add(b);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });
});

describe("TestNegAndSubAtMostNegative", () => {
  it("0 - mostNegative is 2^63 exactly", () => {
    const got = Quantity.of(0).sub(Quantity.of(-(1n << 63n)));
    expect(got.toString()).toBe("9223372036854775808");
    expect(got.sign()).toBe(1);
  });
  it("keeps the scale", () =>
    expect(
      Quantity.of(-(1n << 63n), -3)
        .neg()
        .toString(),
    ).toBe("9223372036854775808m"));
  it("10 - mostNegative", () =>
    expect(
      Quantity.of(1, 1)
        .sub(Quantity.of(-(1n << 63n)))
        .toString(),
    ).toBe("9223372036854775818"));
  it("zero receiver inherits BinarySI: 8Ei", () => {
    const got = Quantity.of(0).sub(Quantity.of(-(1n << 63n), 0, "BinarySI"));
    expect(got.format).toBe("BinarySI");
    expect(got.toString()).toBe("8Ei");
  });
});

describe("TestAddSubRoundTripAcrossScales", () => {
  it("cancels exactly", () => {
    let acc = Quantity.of(0);
    const order: bigint[] = [];
    for (let i = 0; i < 100; i++) {
      const j = BigInt(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER));
      order.push(j);
      acc = acc.add(Quantity.of(j, Number(j % 20n) - 10));
    }
    for (const j of order) acc = acc.sub(Quantity.of(j, Number(j % 20n) - 10));
    expect(acc.isZero()).toBe(true);
  });
});

describe("brief examples", () => {
  const table: [string, string][] = [
    ["1500m", "1500m"],
    ["1.5", "1500m"],
    ["1e3", "1e3"], // DecimalExponent keeps its format, as upstream
    ["1024Mi", "1Gi"],
    ["0.1", "100m"],
    ["+1", "1"],
    [".5", "500m"],
    ["-1", "-1"],
    ["1n", "1n"],
    ["1u", "1u"],
    ["1k", "1k"],
    ["1Ei", "1Ei"],
    ["1E3", "1e3"],
    ["500Mi", "500Mi"],
    ["1G", "1G"],
  ];
  it.each(table)("%s → %s", (input, want) => expect(Quantity.parse(input).toString()).toBe(want));

  it("milliValue/value round up and saturate", () => {
    expect(quantityMilliValue("100m")).toBe(100);
    expect(quantityMilliValue("1.5")).toBe(1500);
    expect(quantityValue("1.5Gi")).toBe(1610612736);
    expect(quantityValue("1m")).toBe(1);
    expect(quantityValue("10E")).toBe(Number.MAX_SAFE_INTEGER);
    expect(quantityValue("-10E")).toBe(Number.MIN_SAFE_INTEGER);
  });

  it("milliValueBig/valueBig keep every digit past 2^53, as upstream's int64 does", () => {
    expect(Quantity.parse("9007199254740993").valueBig()).toBe(9007199254740993n);
    expect(Quantity.parse("9007199254740994").valueBig()).toBe(9007199254740994n);
    // BinarySI parsing caps at MaxInt64, as upstream's.
    expect(Quantity.parse("8Ei").valueBig()).toBe(9223372036854775807n);
    expect(Quantity.parse("9223372036854775807").milliValueBig()).toBe(9223372036854775807000n);
    expect(Quantity.parse("1.0005m").milliValueBig()).toBe(2n);
    expect(Quantity.parse("-1.5").milliValueBig()).toBe(-1500n);
    expect(Quantity.parse("1e100").valueBig()).toBe(1n << 128n);
  });
});

describe("tryParseQuantity", () => {
  it.each([
    ["1500m", 1500],
    ["2", 2000],
    ["0", 0],
  ])("parses %s", (input, milli) => expect(tryParseQuantity(input)?.milliValue()).toBe(milli));

  it.each([[undefined], [""], ["Non-Numeric"], ["1Qi"], ["1.2.3"]])(
    "gives null for %j, which Quantity.parse rejects or cannot take",
    (input) => expect(tryParseQuantity(input)).toBeNull(),
  );

  it("counts a bad value as none in summaries", () => {
    expect(tryParseQuantity("lots")?.value() ?? 0).toBe(0);
    expect(tryParseQuantity("1Gi")?.value() ?? 0).toBe(1073741824);
  });
});

describe("Quantity.mul (DRANodeAllocatableResources: consumed capacity × multiplier)", () => {
  it("multiplies exactly and keeps the receiver's format", () => {
    expect(Quantity.parse("4Gi").mul(Quantity.parse("2")).toString()).toBe("8Gi");
    expect(Quantity.parse("10").mul(Quantity.parse("0.5")).toString()).toBe("5");
    expect(Quantity.parse("500Mi").mul(3).toString()).toBe("1500Mi");
    expect(Quantity.parse("250m").mul(Quantity.parse("2")).milliValue()).toBe(500);
    expect(() => Quantity.parse("1").mul(1.5)).toThrow(RangeError);
  });
});
