// OpenDDL parser: every literal form, type spelling, data layout and error of Appendix A, built
// as small texts in code; then the sample .ogex files (facts from the files) and their prefixes.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "common/test_paths.h"
#include "loaders/opengex/openddl/openddl.h"

namespace esv::ddl {
namespace {

std::shared_ptr<const std::vector<uint8_t>> bytesOf(const std::string& text) {
    return std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end());
}

// Parses text that must be valid.
Document parseOk(const std::string& text, const ParseOptions& options = {}) {
    Document doc;
    ParseError error;
    bool ok = doc.parse(bytesOf(text), error, options);
    EXPECT_TRUE(ok) << "line " << error.line << " column " << error.column << ": " << error.message << "\nin: "
                    << text;
    return doc;
}

// Parses text that must fail; returns the error.
ParseError parseFail(const std::string& text, const ParseOptions& options = {}) {
    Document doc;
    ParseError error;
    bool ok = doc.parse(bytesOf(text), error, options);
    EXPECT_FALSE(ok) << "parsed without error: " << text;
    EXPECT_TRUE(doc.roots().empty());
    return error;
}

// The single primitive structure of a one-structure text.
const PrimitiveData& onlyData(const Document& doc) {
    static const PrimitiveData kEmpty;
    if (doc.roots().size() != 1 || !doc.roots()[0]->primitive) {
        ADD_FAILURE() << "expected one primitive structure";
        return kEmpty;
    }
    return doc.roots()[0]->data;
}

template <class T>
std::vector<T> values(const std::string& text) {
    Document doc = parseOk(text);
    const PrimitiveData& d = onlyData(doc);
    const T* p = d.as<T>();
    if (!p) {
        ADD_FAILURE() << "wrong element type for " << text;
        return {};
    }
    return std::vector<T>(p, p + d.elementCount());
}

uint32_t floatBits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

uint64_t doubleBits(double f) {
    uint64_t b;
    std::memcpy(&b, &f, 8);
    return b;
}

// Expects an error at a line and column whose message contains `part`.
void expectError(const std::string& text, int line, int column, const std::string& part,
                 const ParseOptions& options = {}) {
    ParseError e = parseFail(text, options);
    EXPECT_EQ(e.line, line) << e.message << "\nin: " << text;
    EXPECT_EQ(e.column, column) << e.message << "\nin: " << text;
    EXPECT_NE(e.message.find(part), std::string::npos) << "message: " << e.message << "\nexpected part: " << part;
}

// ---------------------------------------------------------------------------------------------
// Empty input, type names

TEST(OpenDdl, EmptyInputHasNoStructures) {
    for (const char* text : {"", "   \n\t\r ", "// only a comment", "/* block */ // line\n", "\x01\x02\x1F "}) {
        Document doc = parseOk(text);
        EXPECT_TRUE(doc.roots().empty());
        EXPECT_EQ(doc.structureCount(), 0u);
    }
    Document doc;
    ParseError e;
    EXPECT_TRUE(doc.parse(nullptr, e));
    EXPECT_TRUE(doc.roots().empty());
    // A UTF-8 byte order mark first is whitespace; anywhere else it is not.
    Document bom = parseOk("\xEF\xBB\xBFMetric {float {1}}");
    ASSERT_EQ(bom.roots().size(), 1u);
    EXPECT_EQ(bom.roots()[0]->offset, 3u);
    expectError("A {}\xEF\xBB\xBF", 1, 5, "found byte 0xEF");
    // An empty array of the right type is a valid, empty view.
    Document empty = parseOk("float {} i16[2] {}");
    EXPECT_NE(empty.roots()[0]->data.as<float>(), nullptr);
    EXPECT_EQ(empty.roots()[0]->data.as<double>(), nullptr);
    EXPECT_NE(empty.roots()[1]->data.as<int16_t>(), nullptr);
}

TEST(OpenDdl, EveryTypeSpelling) {
    struct Case {
        const char* name;
        DataType type;
    } cases[] = {
        {"bool", DataType::Bool},          {"b", DataType::Bool},
        {"int8", DataType::Int8},          {"i8", DataType::Int8},
        {"int16", DataType::Int16},        {"i16", DataType::Int16},
        {"int32", DataType::Int32},        {"i32", DataType::Int32},
        {"int64", DataType::Int64},        {"i64", DataType::Int64},
        {"uint8", DataType::UInt8},        {"u8", DataType::UInt8},
        {"unsigned_int8", DataType::UInt8},
        {"uint16", DataType::UInt16},      {"u16", DataType::UInt16},
        {"unsigned_int16", DataType::UInt16},
        {"uint32", DataType::UInt32},      {"u32", DataType::UInt32},
        {"unsigned_int32", DataType::UInt32},
        {"uint64", DataType::UInt64},      {"u64", DataType::UInt64},
        {"unsigned_int64", DataType::UInt64},
        {"half", DataType::Half},          {"h", DataType::Half},
        {"float16", DataType::Half},       {"f16", DataType::Half},
        {"float", DataType::Float},        {"f", DataType::Float},
        {"float32", DataType::Float},      {"f32", DataType::Float},
        {"double", DataType::Double},      {"d", DataType::Double},
        {"float64", DataType::Double},     {"f64", DataType::Double},
        {"string", DataType::String},      {"s", DataType::String},
        {"ref", DataType::Ref},            {"r", DataType::Ref},
        {"type", DataType::Type},          {"t", DataType::Type},
        {"base64", DataType::Base64},      {"z", DataType::Base64},
    };
    for (const Case& c : cases) {
        DataType t = DataType::Count;
        EXPECT_TRUE(parseDataType(c.name, t)) << c.name;
        EXPECT_EQ(t, c.type) << c.name;
        Document doc = parseOk(std::string(c.name) + " {}");
        ASSERT_EQ(doc.roots().size(), 1u);
        EXPECT_TRUE(doc.roots()[0]->primitive) << c.name;
        EXPECT_EQ(doc.roots()[0]->identifier, c.name);
        EXPECT_EQ(doc.roots()[0]->data.type, c.type) << c.name;
        EXPECT_EQ(doc.roots()[0]->data.elementCount(), 0u);
    }
    DataType t;
    for (const char* notType : {"", "Float", "int", "uint", "unsigned_int", "float8", "i7", "string8", "x", "F"})
        EXPECT_FALSE(parseDataType(notType, t)) << notType;

    const char* canonical[] = {"bool",   "int8",   "int16",  "int32", "int64", "uint8",
                               "uint16", "uint32", "uint64", "half",  "float", "double",
                               "string", "ref",    "type",   "base64"};
    const size_t sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 0, 0, 0, 0};
    for (int i = 0; i < int(DataType::Count); ++i) {
        EXPECT_STREQ(dataTypeName(DataType(i)), canonical[i]);
        EXPECT_EQ(elementSize(DataType(i)), sizes[i]) << canonical[i];
        EXPECT_TRUE(parseDataType(canonical[i], t));
        EXPECT_EQ(t, DataType(i));
    }
}

// ---------------------------------------------------------------------------------------------
// Integers (A.3.2)

TEST(OpenDdl, SpecExampleIntegerForms) {
    auto v = values<uint32_t>(
        "uint32\n{\n    1094861636,\n    0x41424344,\n    0o10120441504,\n"
        "    0b0100_0001_0100_0010_0100_0011_0100_0100,\n    'ABCD'\n}");
    EXPECT_EQ(v, std::vector<uint32_t>(5, 1094861636u));
}

TEST(OpenDdl, IntegerLiteralForms) {
    EXPECT_EQ(values<int32_t>("int32 {0, 7, +7, -7, 007, 1_000_000, -2147483648, 2147483647}"),
              (std::vector<int32_t>{0, 7, 7, -7, 7, 1000000, std::numeric_limits<int32_t>::min(), 2147483647}));
    EXPECT_EQ(values<int32_t>("i32 {0x0, 0XaB, 0xFF_FF, -0x10, +0x10, 0x7FFFFFFF, -0x80000000}"),
              (std::vector<int32_t>{0, 0xAB, 0xFFFF, -16, 16, 0x7FFFFFFF, std::numeric_limits<int32_t>::min()}));
    EXPECT_EQ(values<int32_t>("int32 {0o0, 0o17, 0O7_7, -0o10}"), (std::vector<int32_t>{0, 15, 63, -8}));
    EXPECT_EQ(values<int32_t>("int32 {0b0, 0b101, 0B1_1, -0b1000}"), (std::vector<int32_t>{0, 5, 3, -8}));
    EXPECT_EQ(values<int32_t>(R"(int32 {'a', 'AB', -'A', +'A', ' ', '~'})"),
              (std::vector<int32_t>{'a', 0x4142, -65, 65, 32, 126}));
    // Escapes in character literals: every one of Table A.2.
    EXPECT_EQ(values<uint8_t>(R"(u8 {'\"', '\'', '\?', '\\', '\a', '\b', '\f', '\n', '\r', '\t', '\v', '\x00', '\xfF', '/', '*'})"),
              (std::vector<uint8_t>{0x22, 0x27, 0x3F, 0x5C, 7, 8, 12, 10, 13, 9, 11, 0, 255, '/', '*'}));
    EXPECT_EQ(values<uint64_t>(R"(u64 {'\x01\x02\x03\x04\x05\x06\x07\x08'})"),
              (std::vector<uint64_t>{0x0102030405060708ull}));
    // Whitespace between the sign and the digits is accepted.
    EXPECT_EQ(values<int16_t>("int16 {- 5, + 6, -/*c*/7}"), (std::vector<int16_t>{-5, 6, -7}));
}

TEST(OpenDdl, IntegerLimitsOfEveryType) {
    EXPECT_EQ(values<int8_t>("int8 {-128, 127, -0, 0x7F, -0x80}"), (std::vector<int8_t>{-128, 127, 0, 127, -128}));
    EXPECT_EQ(values<int16_t>("i16 {-32768, 32767}"), (std::vector<int16_t>{-32768, 32767}));
    EXPECT_EQ(values<int64_t>("int64 {-9223372036854775808, 9223372036854775807, 0x7FFF_FFFF_FFFF_FFFF}"),
              (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::max()}));
    EXPECT_EQ(values<uint8_t>("uint8 {0, 255, 0xFF, 0b1111_1111, 0o377, -0}"),
              (std::vector<uint8_t>{0, 255, 255, 255, 255, 0}));
    EXPECT_EQ(values<uint16_t>("unsigned_int16 {65535, 0xFFFF}"), (std::vector<uint16_t>{65535, 65535}));
    EXPECT_EQ(values<uint32_t>("u32 {4294967295}"), (std::vector<uint32_t>{4294967295u}));
    EXPECT_EQ(values<uint64_t>("uint64 {18446744073709551615, 0xFFFFFFFFFFFFFFFF, 0o1777777777777777777777}"),
              (std::vector<uint64_t>(3, std::numeric_limits<uint64_t>::max())));
    // Bytes are little-endian in the declared width.
    Document doc = parseOk("int16 {-2, 0x1234}");
    EXPECT_EQ(onlyData(doc).bytes, (std::vector<uint8_t>{0xFE, 0xFF, 0x34, 0x12}));
}

TEST(OpenDdl, IntegerOverflowIsAnError) {
    expectError("uint8 {1, 300}", 1, 11, "integer 300 does not fit in uint8");
    expectError("uint8 {256}", 1, 8, "integer 256 does not fit in uint8");
    expectError("uint8 {0x100}", 1, 8, "integer 0x100 does not fit in uint8");
    expectError("uint8 {-1}", 1, 8, "integer -1 does not fit in uint8");
    expectError("int8 {128}", 1, 7, "integer 128 does not fit in int8");
    expectError("int8 {-129}", 1, 7, "integer -129 does not fit in int8");
    expectError("int8 {0xFF}", 1, 7, "does not fit in int8");
    expectError("int8 {'\\xFF'}", 1, 7, "does not fit in int8");
    expectError("int16 {32768}", 1, 8, "does not fit in int16");
    expectError("unsigned_int16 {\n  65536}", 2, 3, "integer 65536 does not fit in uint16");
    expectError("int32 {2147483648}", 1, 8, "does not fit in int32");
    expectError("u32 {4294967296}", 1, 6, "does not fit in uint32");
    expectError("int64 {9223372036854775808}", 1, 8, "does not fit in int64");
    expectError("uint64 {18446744073709551616}", 1, 9, "integer 18446744073709551616 does not fit in uint64");
    expectError("uint64 {0x1_0000_0000_0000_0000}", 1, 9, "does not fit in uint64");
    expectError("uint64 {'ABCDEFGHI'}", 1, 9, "does not fit in uint64");
    expectError("uint16 {'ABC'}", 1, 9, "does not fit in uint16");
}

TEST(OpenDdl, MalformedIntegers) {
    expectError("int32 {1__0}", 1, 9, "expected ',' or '}' in a int32 list, found '__0'");
    expectError("int32 {1_}", 1, 9, "expected ',' or '}'");
    expectError("int32 {_1}", 1, 8, "expected an integer value in a int32 list, found '_1'");
    expectError("int32 {0x}", 1, 10, "expected a hexadecimal digit after '0x', found '}'");
    expectError("int32 {0o8}", 1, 10, "expected an octal digit");
    expectError("int32 {0b2}", 1, 10, "expected a binary digit");
    expectError("int32 {0x_1}", 1, 10, "expected a hexadecimal digit");
    expectError("int32 {1.5}", 1, 9, "expected ',' or '}' in a int32 list, found '.5'");
    expectError("int32 {1e3}", 1, 9, "found 'e3'");
    expectError("int32 {true}", 1, 8, "expected an integer value in a int32 list, found 'true'");
    expectError("int32 {-}", 1, 8, "expected an integer value");
    expectError("int32 {''}", 1, 8, "empty character literal");
    expectError("int32 {'ab}", 1, 8, "unterminated character literal");
    expectError("int32 {'a\nb'}", 1, 8, "unterminated character literal");
    expectError("int32 {'\\q'}", 1, 9, "unknown escape sequence '\\q'");
    expectError("int32 {'\\x4'}", 1, 9, "'\\x' needs exactly two hexadecimal digits");
    expectError("int32 {'\\u0041'}", 1, 9, "allowed in strings only");
    expectError("int32 {'\xC3\xA9'}", 1, 9, "printable ASCII only");
    expectError("int32 {1,}", 1, 10, "expected a int32 value, found '}'");
    expectError("int32 {,1}", 1, 8, "expected a int32 value, found ','");
    expectError("int32 {1 2}", 1, 10, "expected ',' or '}' in a int32 list, found '2'");
}

// ---------------------------------------------------------------------------------------------
// Floating point (A.3.3)

TEST(OpenDdl, FloatLiteralForms) {
    auto v = values<float>(
        "float {1.0, -2.5, +3.25, .5, -.5, 7, 1e3, 1E3, 1.5e-2, 2.5E+2, -0.0, 1_000.2_5, 1e1_0, 0.1, "
        "3.4028234e38, 1., 1.e2, 00.5}");
    std::vector<float> expected = {1.0f, -2.5f, 3.25f, 0.5f,  -0.5f,        7.0f, 1000.0f, 1000.0f, 0.015f,
                                   250.f, -0.0f, 1000.25f, 1e10f, 0.1f, 3.4028234e38f, 1.0f, 100.0f, 0.5f};
    ASSERT_EQ(v.size(), expected.size());
    for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(floatBits(v[i]), floatBits(expected[i])) << i;
    // Nearest float, not a double rounded twice.
    auto w = values<float>("float {1.00000017881393432617187499, 0.333333333333333333333}");
    EXPECT_EQ(floatBits(w[0]), 0x3F800001u);
    EXPECT_EQ(w[1], 1.0f / 3.0f);

    auto d = values<double>("double {0.1, -1e-300, 1.7976931348623157e308, 4.9e-324, 1_0.0_1}");
    EXPECT_EQ(doubleBits(d[0]), doubleBits(0.1));
    EXPECT_EQ(d[1], -1e-300);
    EXPECT_EQ(d[2], std::numeric_limits<double>::max());
    EXPECT_EQ(d[3], std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(d[4], 10.01);
}

// The parser reads short literals itself and the rest with fast_float; either way each value must
// be the nearest float or double, which glibc's strtof/strtod give too.
TEST(OpenDdl, DecimalFloatsAreCorrectlyRounded) {
    std::mt19937_64 rng(7);
    std::string floats = "float {", doubles = "double {";
    std::vector<std::string> literals;
    for (int i = 0; i < 60000; ++i) {
        std::string lit = (rng() & 1) ? "-" : "";
        int digits = 1 + int(rng() % 24);
        int point = int(rng() % (digits + 1));
        for (int k = 0; k < digits; ++k) {
            if (k == point) lit += '.';
            lit += char('0' + rng() % 10);
        }
        if (point == digits) lit += ".5";
        if (rng() % 8 == 0) lit += "e" + std::to_string(int(rng() % 30) - 20);  // stays below 1e35
        literals.push_back(lit);
        floats += (i ? ", " : "") + lit;
        doubles += (i ? ", " : "") + lit;
    }
    auto f = values<float>(floats + "}");
    auto d = values<double>(doubles + "}");
    ASSERT_EQ(f.size(), literals.size());
    ASSERT_EQ(d.size(), literals.size());
    for (size_t i = 0; i < literals.size(); ++i) {
        ASSERT_EQ(floatBits(f[i]), floatBits(std::strtof(literals[i].c_str(), nullptr))) << literals[i];
        ASSERT_EQ(doubleBits(d[i]), doubleBits(std::strtod(literals[i].c_str(), nullptr))) << literals[i];
    }
}

TEST(OpenDdl, FloatBitPatterns) {
    auto v = values<float>(
        "float {0x3F800000, -0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0o07740000000, "
        "0b0011_1111_1000_0000_0000_0000_0000_0000, 0x0000_0001, 0xbef33b00}");
    ASSERT_EQ(v.size(), 9u);
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[1], -1.0f);
    EXPECT_TRUE(std::isinf(v[2]) && v[2] > 0);
    EXPECT_TRUE(std::isinf(v[3]) && v[3] < 0);
    EXPECT_TRUE(std::isnan(v[4]));
    EXPECT_EQ(v[5], 1.0f);
    EXPECT_EQ(v[6], 1.0f);
    EXPECT_EQ(floatBits(v[7]), 1u);
    EXPECT_EQ(floatBits(v[8]), 0xBEF33B00u);
    auto d = values<double>("double {0x3FF0000000000000, -0x3FF0000000000000, 0x7FF8_0000_0000_0000}");
    EXPECT_EQ(d[0], 1.0);
    EXPECT_EQ(d[1], -1.0);
    EXPECT_TRUE(std::isnan(d[2]));
    auto edge = values<float>("float {0X3f800000, 0x000000003F800000, -0x0, 0x1, 0x3F80_0000, 0x3F800000 }");
    EXPECT_EQ(std::vector<uint32_t>({floatBits(edge[0]), floatBits(edge[1]), floatBits(edge[2]), floatBits(edge[3]),
                                     floatBits(edge[4]), floatBits(edge[5])}),
              (std::vector<uint32_t>{0x3F800000u, 0x3F800000u, 0x80000000u, 1u, 0x3F800000u, 0x3F800000u}));
    auto dedge = values<double>("double {0x0000000000000000_3FF0000000000000, -0x0}");
    EXPECT_EQ(dedge[0], 1.0);
    EXPECT_EQ(doubleBits(dedge[1]), 0x8000000000000000ull);
    expectError("float {0x100000000}", 1, 8, "bit pattern 0x100000000 does not fit in the 32 bits of a float");
    expectError("float {0x3F800000g}", 1, 18, "expected ',' or '}' in a float list, found 'g'");
    expectError("float {0x1_0000_0000}", 1, 8, "bit pattern 0x1_0000_0000 does not fit in the 32 bits of a float");
    expectError("double {0x1_0000_0000_0000_0000}", 1, 9, "does not fit in the 64 bits of a double");
    expectError("half {0x10000}", 1, 7, "does not fit in the 16 bits of a half");
}

TEST(OpenDdl, HalfValues) {
    auto h = values<uint16_t>(
        "half {1.0, -2, 65504, 0.5, 0x3C00, -0x3C00, 0x7C00, 5.9604645e-8, 0.000061035156, 1.00048828125, "
        "1.00146484375, 1.000732421875, 0, -0.0, 2e-8, 3e-8}");
    std::vector<uint16_t> expected = {0x3C00, 0xC000, 0x7BFF, 0x3800, 0x3C00, 0xBC00, 0x7C00, 0x0001,
                                      0x0400,
                                      0x3C00,  // halfway between 1 and 1+2^-10: ties to even
                                      0x3C02,  // halfway between 1+2^-10 and 1+2^-9: ties to even
                                      0x3C01,  // three quarters of the way from 1 to 1+2^-10
                                      0x0000, 0x8000,
                                      0x0000,   // below half the smallest subnormal
                                      0x0001};  // above half of it
    EXPECT_EQ(h, expected);
    for (const char* spelling : {"h", "float16", "f16"}) {
        Document doc = parseOk(std::string(spelling) + " {1.5}");
        ASSERT_NE(onlyData(doc).as<uint16_t>(), nullptr);
        EXPECT_EQ(onlyData(doc).as<uint16_t>()[0], 0x3E00);
    }
    expectError("half {65520}", 1, 7, "value 65520 does not fit in half");
    expectError("half {-1e6}", 1, 7, "value -1e6 does not fit in half");
}

TEST(OpenDdl, MalformedFloats) {
    expectError("float {1e39}", 1, 8, "value 1e39 does not fit in float");
    expectError("float {-1e39}", 1, 8, "does not fit in float");
    expectError("double {1e400}", 1, 9, "value 1e400 does not fit in double");
    expectError("float {inf}", 1, 8, "expected a float value, found 'inf'");
    expectError("float {nan}", 1, 8, "expected a float value, found 'nan'");
    expectError("float {.}", 1, 8, "malformed float value");
    expectError("float {1.0.0}", 1, 11, "expected ',' or '}' in a float list, found '.0'");
    expectError("float {1.0x}", 1, 11, "expected ',' or '}' in a float list, found 'x'");
    expectError("float {1e}", 1, 9, "found 'e'");
    expectError("float {'a'}", 1, 8, "expected a float value, found ''");
    expectError("float {true}", 1, 8, "expected a float value, found 'true'");
    expectError("float {1.0; 2.0}", 1, 11, "expected ',' or '}' in a float list, found ';'");
    expectError("float[3] {{1.0, 2.5, x}}", 1, 22, "expected a float value, found 'x'");
    expectError("float {1__0.5}", 1, 9, "found '__0.5'");
}

// ---------------------------------------------------------------------------------------------
// Booleans, strings, base64, types, references

TEST(OpenDdl, Booleans) {
    Document doc = parseOk("bool {true, false, 0, 1}");
    EXPECT_EQ(onlyData(doc).bytes, (std::vector<uint8_t>{1, 0, 0, 1}));
    EXPECT_NE(onlyData(doc).as<uint8_t>(), nullptr);
    EXPECT_EQ(onlyData(doc).as<int8_t>(), nullptr);
    EXPECT_EQ(values<uint8_t>("b[2] {{true, 0}, {1, false}}"), (std::vector<uint8_t>{1, 0, 1, 0}));
    expectError("bool {2}", 1, 7, "expected true, false, 0 or 1 in a bool list, found '2'");
    expectError("bool {01}", 1, 7, "expected true, false, 0 or 1");
    expectError("bool {True}", 1, 7, "found 'True'");
    expectError("bool {truex}", 1, 7, "found 'truex'");
}

TEST(OpenDdl, StringsEscapesAndConcatenation) {
    Document doc = parseOk(
        R"(string {"plain", "", "\"\'\?\\\a\b\f\n\r\t\v\x41\x7e", "\u00E9\u4E2D\U01F600\U10FFFF", )"
        "\"caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80\", "
        R"("ab" "cd"/* c */"ef" // line
           "gh", "/* not a comment */ // nor this", "\x00z"})");
    const auto& s = onlyData(doc).strings;
    ASSERT_EQ(s.size(), 8u);
    EXPECT_EQ(s[0], "plain");
    EXPECT_EQ(s[1], "");
    EXPECT_EQ(s[2], "\"'?\\\a\b\f\n\r\t\vA~");
    EXPECT_EQ(s[3], "\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF");
    EXPECT_EQ(s[4], "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80");
    EXPECT_EQ(s[5], "abcdefgh");
    EXPECT_EQ(s[6], "/* not a comment */ // nor this");
    EXPECT_EQ(s[7], std::string("\0z", 2));
    EXPECT_EQ(onlyData(doc).elementCount(), 8u);
    EXPECT_EQ(onlyData(doc).as<float>(), nullptr);

    Document ascii = parseOk(R"(string {"\u0041\U00007A"})");
    EXPECT_EQ(onlyData(ascii).strings[0], "Az");

    Document sub = parseOk(R"(s[2] {{"a", "b" "c"}, {"d", "e"}})");
    EXPECT_EQ(onlyData(sub).strings, (std::vector<std::string>{"a", "bc", "d", "e"}));
    EXPECT_EQ(onlyData(sub).subarrayCount(), 2u);
}

TEST(OpenDdl, StringErrors) {
    expectError("string {\"abc}", 1, 9, "unterminated string");
    expectError("string {\"abc\n\"}", 1, 9, "unterminated string");
    expectError("Name {\n  string {\"ab\\q\"}}", 2, 14, "unknown escape sequence '\\q'");
    expectError("string {\"\\x4g\"}", 1, 10, "'\\x' needs exactly two hexadecimal digits");
    expectError("string {\"\\u12\"}", 1, 10, "'\\u' needs exactly 4 hexadecimal digits");
    expectError("string {\"\\u0000\"}", 1, 10, "is not a Unicode character");
    expectError("string {\"\\uD800\"}", 1, 10, "is not a Unicode character");
    expectError("string {\"\\U110000\"}", 1, 10, "is not a Unicode character");
    expectError("string {\"\\U00004\"}", 1, 10, "'\\U' needs exactly 6 hexadecimal digits");
    expectError("string {\"a\tb\"}", 1, 11, "control character a tab in a string");
    expectError("string {\"a\x7F\"}", 1, 11, "control character");
    expectError("string {\"a\xFF\"}", 1, 11, "invalid UTF-8");
    expectError("string {\"a\xC3\"}", 1, 11, "invalid UTF-8");
    expectError("string {\"a\xC0\xAF\"}", 1, 11, "invalid UTF-8");        // overlong
    expectError("string {\"a\xED\xA0\x80\"}", 1, 11, "invalid UTF-8");    // surrogate
    expectError("string {\"a\xC2\x85\"}", 1, 11, "C1 control character");
    expectError("string {abc}", 1, 9, "expected a string in a string list, found 'abc'");
    expectError("string {\"a\" x}", 1, 13, "expected ',' or '}' in a string list, found 'x'");
}

TEST(OpenDdl, Base64Data) {
    Document doc = parseOk(
        "base64 {SGVsbG8=, SGVsbG8, SGVs\n bG8h, TWFu, TQ==, TWE=, +/+/, =}");
    const auto& b = onlyData(doc).blobs;
    ASSERT_EQ(b.size(), 8u);
    auto str = [](const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); };
    EXPECT_EQ(str(b[0]), "Hello");
    EXPECT_EQ(str(b[1]), "Hello");
    EXPECT_EQ(str(b[2]), "Hello!");
    EXPECT_EQ(str(b[3]), "Man");
    EXPECT_EQ(str(b[4]), "M");
    EXPECT_EQ(str(b[5]), "Ma");
    EXPECT_EQ(b[6], (std::vector<uint8_t>{0xFB, 0xFF, 0xBF}));
    EXPECT_TRUE(b[7].empty());  // padding alone
    expectError("base64 {TWFu, , TQ}", 1, 15, "expected a base64 value, found ','");
    Document sub = parseOk("z[2] {{TWFu, TQ}, /* between subarrays */ {TWE, SGk}}");
    ASSERT_EQ(onlyData(sub).blobs.size(), 4u);
    EXPECT_EQ(str(onlyData(sub).blobs[3]), "Hi");
    Document empty = parseOk("z {}");
    EXPECT_EQ(onlyData(empty).elementCount(), 0u);
    expectError("base64 {TWFuT}", 1, 9, "base64 data has 5 characters");
    expectError("base64 {TWFu // comment\n}", 1, 9, "base64 data has 13 characters");
    expectError("base64 {TQ===}", 1, 13, "expected ',' or '}' in a base64 list, found '='");
    expectError("base64 {TQ-}", 1, 11, "expected ',' or '}' in a base64 list, found '-'");
}

TEST(OpenDdl, TypeData) {
    Document doc = parseOk("type {float, i32, unsigned_int8, z, f16, double, string, ref, type, b}");
    EXPECT_EQ(onlyData(doc).types,
              (std::vector<DataType>{DataType::Float, DataType::Int32, DataType::UInt8, DataType::Base64,
                                     DataType::Half, DataType::Double, DataType::String, DataType::Ref,
                                     DataType::Type, DataType::Bool}));
    Document sub = parseOk("t[2] {{float, double}}");
    EXPECT_EQ(onlyData(sub).types.size(), 2u);
    expectError("type {float, vec3}", 1, 14, "expected a type name in a type list, found 'vec3'");
    expectError("type {1}", 1, 7, "expected a type name in a type list, found '1'");
}

TEST(OpenDdl, ReferenceData) {
    Document doc = parseOk("ref {$a, %b, $a%b%c, null, %x%y, $_9}");
    const auto& r = onlyData(doc).refs;
    ASSERT_EQ(r.size(), 6u);
    EXPECT_EQ(r[0].toString(), "$a");
    EXPECT_TRUE(r[0].names[0].global);
    EXPECT_EQ(r[1].toString(), "%b");
    EXPECT_FALSE(r[1].names[0].global);
    ASSERT_EQ(r[2].names.size(), 3u);
    EXPECT_EQ(r[2].names[0].identifier, "a");
    EXPECT_TRUE(r[2].names[0].global);
    EXPECT_EQ(r[2].names[1].identifier, "b");
    EXPECT_FALSE(r[2].names[1].global);
    EXPECT_EQ(r[2].names[2].identifier, "c");
    EXPECT_EQ(r[2].toString(), "$a%b%c");
    EXPECT_TRUE(r[3].isNull());
    EXPECT_EQ(r[3].toString(), "null");
    EXPECT_EQ(r[4].toString(), "%x%y");
    EXPECT_EQ(r[5].toString(), "$_9");
    EXPECT_EQ(values<uint8_t>("u8 {1}").size(), 1u);
    expectError("ref {$}", 1, 7, "expected an identifier right after '$', found '}'");
    expectError("ref {$ a}", 1, 7, "expected an identifier right after '$', found a space");
    expectError("ref {%1}", 1, 7, "expected an identifier right after '%', found '1'");
    expectError("ref {a}", 1, 6, "expected a reference ($name, %name or null), found 'a'");
    expectError("ref {nullx}", 1, 6, "expected a reference");
    expectError("ref {$a$b}", 1, 8, "expected ',' or '}' in a ref list, found '$'");
    expectError("ref {$a %b}", 1, 9, "expected ',' or '}' in a ref list, found '%'");
}

TEST(OpenDdl, ResolvesReferences) {
    Document doc = parseOk(R"(
        Node $root {
            Transform %xfm {float {1}}
            Animation {
                Track (target = %xfm) {ref {%xfm}}
                Track %t2 (target = %missing) {}
            }
            Node %child { Geometry %geo {} Node %inner { Mesh %m {} } }
            ObjectRef {ref {%child%geo, $root%child%inner%m, $other, null, $root%nope}}
        }
        Node $other { Transform %xfm {} }
        Top %t {}
    )");
    ASSERT_EQ(doc.roots().size(), 3u);
    const Structure* root = doc.roots()[0];
    const Structure* other = doc.roots()[1];
    EXPECT_EQ(doc.findGlobal("root"), root);
    EXPECT_EQ(doc.findGlobal("other"), other);
    EXPECT_EQ(doc.findGlobal("xfm"), nullptr);
    EXPECT_EQ(doc.findGlobal(""), nullptr);
    const Structure* xfm = root->child("Transform");
    const Structure* anim = root->child("Animation");
    ASSERT_TRUE(xfm && anim);
    const Structure* track = anim->children[0];
    // A property found on a Track: %xfm is a sibling of the Track's parent.
    const Reference* target = nullptr;
    ASSERT_TRUE(track->property("target")->value.asRef(target));
    EXPECT_EQ(doc.resolve(*target, track), xfm);
    // Ref data inside the Track resolves the same way from the primitive structure.
    const Structure* refData = track->firstPrimitive();
    ASSERT_NE(refData, nullptr);
    EXPECT_EQ(doc.resolve(refData->data.refs[0], refData), xfm);
    // Unresolvable.
    ASSERT_TRUE(anim->children[1]->property("target")->value.asRef(target));
    EXPECT_EQ(doc.resolve(*target, anim->children[1]), nullptr);

    const Structure* objectRef = root->child("ObjectRef")->firstPrimitive();
    const auto& refs = objectRef->data.refs;
    ASSERT_EQ(refs.size(), 5u);
    const Structure* child = root->children[2];
    ASSERT_EQ(child->name.identifier, "child");
    EXPECT_EQ(doc.resolve(refs[0], objectRef), child->child("Geometry"));
    EXPECT_EQ(doc.resolve(refs[1], objectRef), child->child("Node")->child("Mesh"));
    EXPECT_EQ(doc.resolve(refs[2], objectRef), other);
    EXPECT_EQ(doc.resolve(refs[3], objectRef), nullptr);
    EXPECT_EQ(doc.resolve(refs[4], objectRef), nullptr);
    Reference laterGlobal = refs[1];
    laterGlobal.names[2].global = true;  // only the first name may be global (A.6)
    EXPECT_EQ(doc.resolve(laterGlobal, objectRef), nullptr);
    // Top-level local names: from anywhere below, and with no context at all.
    Reference top;
    top.names.push_back(Name{"t", false});
    EXPECT_EQ(doc.resolve(top, objectRef), doc.roots()[2]);
    EXPECT_EQ(doc.resolve(top, nullptr), doc.roots()[2]);
    // %xfm from inside $other finds other's own Transform, not root's.
    Reference localXfm;
    localXfm.names.push_back(Name{"xfm", false});
    EXPECT_EQ(doc.resolve(localXfm, other->children[0]), other->children[0]);
    EXPECT_EQ(doc.resolve(localXfm, nullptr), nullptr);
    EXPECT_EQ(doc.resolve(Reference{}, objectRef), nullptr);
}

// ---------------------------------------------------------------------------------------------
// Subarrays and states (A.7)

TEST(OpenDdl, Subarrays) {
    Document doc = parseOk("VertexArray { float[3] {{1.0, 2.5, -3.25}, {0.5, 0.0, 0.5}, {0.0, -1.0, 4.0}} }");
    const Structure* s = doc.roots()[0]->firstPrimitive();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->data.arraySize, 3u);
    EXPECT_FALSE(s->data.hasStates);
    EXPECT_EQ(s->data.elementCount(), 9u);
    EXPECT_EQ(s->data.subarrayCount(), 3u);
    const float* f = s->data.as<float>();
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(std::vector<float>(f, f + 9), (std::vector<float>{1.0f, 2.5f, -3.25f, 0.5f, 0, 0.5f, 0, -1, 4}));
    EXPECT_EQ(s->data.as<double>(), nullptr);
    EXPECT_EQ(values<int32_t>("int32[1] {{1}, {2}, {-3}}"), (std::vector<int32_t>{1, 2, -3}));
    EXPECT_EQ(values<uint16_t>("unsigned_int16[3] {{2, 0, 1}, {1, 2, 3}}"), (std::vector<uint16_t>{2, 0, 1, 1, 2, 3}));
    EXPECT_EQ(values<double>("double[0x2] {{1, 2}}"), (std::vector<double>{1, 2}));
    EXPECT_EQ(values<float>("float [ 2 ] /*c*/ {/*c*/{ 1 /*c*/, 2 }/*c*/,{3,4}/*c*/}"), (std::vector<float>{1, 2, 3, 4}));
    Document empty = parseOk("float[4] {}");
    EXPECT_EQ(onlyData(empty).arraySize, 4u);
    EXPECT_EQ(onlyData(empty).subarrayCount(), 0u);
    Document named = parseOk("float[2] $pts {{1, 2}}");
    EXPECT_TRUE(named.roots()[0]->hasName);
    EXPECT_EQ(named.roots()[0]->name.identifier, "pts");
    Document refs = parseOk("ref[2] {{$a, %b}, {null, $c%d}}");
    EXPECT_EQ(onlyData(refs).refs.size(), 4u);
    EXPECT_EQ(onlyData(refs).refs[3].toString(), "$c%d");
}

TEST(OpenDdl, SubarrayErrors) {
    expectError("float[3] {{1, 2, 3}, {1, 2}}", 1, 27, "subarray 1 has 2 elements, float[3] needs 3");
    expectError("float[3] {{1, 2, 3, 4}}", 1, 21, "subarray 0 has more than 3 elements (float[3])");
    expectError("float[2] {{}}", 1, 12, "subarray 0 has 0 elements, float[2] needs 2");
    expectError("float[2] {1, 2}", 1, 11, "expected '{' to open a subarray of float[2], found '1'");
    expectError("float[2] {{1, 2} {3, 4}}", 1, 18, "expected ',' or '}' after a subarray of float[2], found '{'");
    expectError("float[2] {{1, 2},}", 1, 18, "expected '{' to open a subarray of float[2], found '}'");
    expectError("float[0] {}", 1, 7, "array size 0 is not in [1, 4294967295]");
    expectError("float[-1] {}", 1, 7, "expected an array size after '[', found '-1'");
    expectError("float[4294967296] {}", 1, 7, "array size 4294967296 is not in");
    expectError("float[x] {}", 1, 7, "expected an array size after '[', found 'x'");
    expectError("float[2 {}", 1, 9, "expected ']' after the array size of '[2 ', found '{'");
    expectError("float[2] M{1, 2}", 1, 10, "expected '{' to open the data of float[2], found 'M'");
    expectError("float[2] {M{1, 2}}", 1, 11, "state identifier 'M' before a subarray needs '*' after float[2]");
    expectError("float[2]* {M{1, 2}, L}", 1, 22, "expected '{' to open a subarray of float[2], found '}'");
    expectError("int32[2] {{1, 2", 1, 16, "expected ',' or '}' in a int32[2] subarray, found end of file");
}

TEST(OpenDdl, DataStates) {
    Document doc = parseOk("Path { float[2]* { M{1.0, 1.0}, L{2.0, 1.0}, C{3.0, 1.0}, {3.0, 2.0}, {2.0, 3.0} } }");
    const Structure* s = doc.roots()[0]->firstPrimitive();
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(s->data.hasStates);
    EXPECT_EQ(s->data.subarrayCount(), 5u);
    ASSERT_EQ(s->data.states.size(), 3u);
    EXPECT_EQ(s->data.states[0], (std::pair<uint32_t, std::string_view>{0, "M"}));
    EXPECT_EQ(s->data.states[1], (std::pair<uint32_t, std::string_view>{1, "L"}));
    EXPECT_EQ(s->data.states[2], (std::pair<uint32_t, std::string_view>{2, "C"}));
    // States are optional on each subarray, and reserved words are fine as states.
    Document doc2 = parseOk("float[2] * {{1, 2}, float {3, 4}, /*c*/ _s2 /*c*/ {5, 6}}");
    const auto& st = onlyData(doc2).states;
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0], (std::pair<uint32_t, std::string_view>{1, "float"}));
    EXPECT_EQ(st[1], (std::pair<uint32_t, std::string_view>{2, "_s2"}));
    EXPECT_EQ(values<float>("float[2]* {M{1,2}, {3, 4}}"), (std::vector<float>{1, 2, 3, 4}));
}

// ---------------------------------------------------------------------------------------------
// Structures, names, properties

TEST(OpenDdl, PropertiesOfEveryKind) {
    Document doc = parseOk(
        R"(Texture $tex (a = 2, b = -2.5, c = "Left" " Hand", d = $x%y, e = null, f = true, g = false, flag,
                         h = float, i = 0x10, j = 'ab', k = SGVsbG8=, l = -7, m = 1e3, n = 0, o = 1,
                         p = 99999999999999999999, q = %loc, r = 1_000, s = .5, t = unsigned_int16, u = -0x3)
           {})");
    ASSERT_EQ(doc.roots().size(), 1u);
    const Structure* s = doc.roots()[0];
    EXPECT_FALSE(s->primitive);
    EXPECT_TRUE(s->hasName);
    EXPECT_TRUE(s->name.global);
    EXPECT_EQ(s->name.identifier, "tex");
    ASSERT_EQ(s->properties.size(), 22u);
    auto v = [&](const char* id) -> const PropertyValue& { return s->property(id)->value; };
    uint64_t u64;
    uint32_t u32;
    double d;
    bool b;
    std::string_view str;
    const Reference* ref;
    DataType type;

    EXPECT_EQ(v("a").kind, LiteralKind::Integer);
    EXPECT_TRUE(v("a").asUInt32(u32));
    EXPECT_EQ(u32, 2u);
    EXPECT_TRUE(v("a").asDouble(d));
    EXPECT_EQ(d, 2.0);
    EXPECT_FALSE(v("a").asString(str));
    EXPECT_FALSE(v("a").asBool(b));

    EXPECT_EQ(v("b").kind, LiteralKind::Float);
    EXPECT_TRUE(v("b").asDouble(d));
    EXPECT_EQ(d, -2.5);
    EXPECT_FALSE(v("b").asUInt64(u64));

    EXPECT_EQ(v("c").kind, LiteralKind::String);
    EXPECT_TRUE(v("c").asString(str));
    EXPECT_EQ(str, "Left Hand");
    EXPECT_FALSE(v("c").asDouble(d));

    EXPECT_TRUE(v("d").asRef(ref));
    EXPECT_EQ(ref->toString(), "$x%y");
    EXPECT_TRUE(v("e").asRef(ref));
    EXPECT_TRUE(ref->isNull());

    EXPECT_TRUE(v("f").asBool(b));
    EXPECT_TRUE(b);
    EXPECT_TRUE(v("g").asBool(b));
    EXPECT_FALSE(b);
    EXPECT_EQ(v("flag").kind, LiteralKind::Bool);  // A.8: no value means true
    EXPECT_TRUE(v("flag").asBool(b));
    EXPECT_TRUE(b);

    EXPECT_TRUE(v("h").asType(type));
    EXPECT_EQ(type, DataType::Float);
    EXPECT_TRUE(v("t").asType(type));
    EXPECT_EQ(type, DataType::UInt16);
    EXPECT_FALSE(v("h").asString(str));

    EXPECT_TRUE(v("i").asUInt64(u64));
    EXPECT_EQ(u64, 16u);
    EXPECT_EQ(v("j").magnitude, 0x6162u);
    EXPECT_EQ(v("j").kind, LiteralKind::Integer);
    EXPECT_EQ(v("k").kind, LiteralKind::Base64);
    EXPECT_EQ(v("k").text, "Hello");

    EXPECT_EQ(v("l").kind, LiteralKind::Integer);
    EXPECT_TRUE(v("l").negative);
    EXPECT_EQ(v("l").magnitude, 7u);
    EXPECT_FALSE(v("l").asUInt64(u64));
    EXPECT_TRUE(v("l").asDouble(d));
    EXPECT_EQ(d, -7.0);

    EXPECT_EQ(v("m").kind, LiteralKind::Float);
    EXPECT_EQ(v("m").number, 1000.0);
    EXPECT_FALSE(v("m").asBool(b));
    EXPECT_TRUE(v("n").asBool(b));  // A.3.1: 0 and 1 are booleans too
    EXPECT_FALSE(b);
    EXPECT_TRUE(v("o").asBool(b));
    EXPECT_TRUE(b);
    EXPECT_FALSE(v("a").asBool(b));

    EXPECT_EQ(v("p").kind, LiteralKind::Float);  // too large for 64 bits: read as a float
    EXPECT_EQ(v("p").number, 1e20);
    EXPECT_TRUE(v("q").asRef(ref));
    EXPECT_EQ(ref->toString(), "%loc");
    EXPECT_TRUE(v("r").asUInt64(u64));
    EXPECT_EQ(u64, 1000u);
    EXPECT_EQ(v("s").number, 0.5);
    EXPECT_TRUE(v("u").negative);
    EXPECT_EQ(v("u").magnitude, 3u);
    EXPECT_EQ(v("u").number, -3.0);

    uint32_t big;
    Document large = parseOk("A (x = 4294967296, y = 4294967295) {}");
    EXPECT_FALSE(large.roots()[0]->property("x")->value.asUInt32(big));
    EXPECT_TRUE(large.roots()[0]->property("x")->value.asUInt64(u64));
    EXPECT_TRUE(large.roots()[0]->property("y")->value.asUInt32(big));
    EXPECT_EQ(big, 4294967295u);
    EXPECT_EQ(s->property("missing"), nullptr);
    EXPECT_EQ(s->properties[0].offset, std::string_view("Texture $tex (").size());
}

TEST(OpenDdl, RepeatedPropertyLastValueWins) {
    Document doc = parseOk("Mesh (lod = 1, part = \"x\", lod = 2) {}");
    const Structure* s = doc.roots()[0];
    ASSERT_EQ(s->properties.size(), 3u);
    uint32_t lod = 0;
    EXPECT_TRUE(s->property("lod")->value.asUInt32(lod));
    EXPECT_EQ(lod, 2u);
    Document empty = parseOk("Mesh () {} Mesh(){}");
    EXPECT_TRUE(empty.roots()[0]->properties.empty());
    EXPECT_EQ(empty.roots().size(), 2u);
}

TEST(OpenDdl, PropertyErrors) {
    expectError("Mesh (lod = ) {}", 1, 13, "expected a property value");
    expectError("Mesh (lod = 2,) {}", 1, 15, "expected a property identifier, found ')'");
    expectError("Mesh (lod 2) {}", 1, 11, "expected ',' or ')' in the property list of Mesh, found '2'");
    expectError("Mesh (lod = 2 {}", 1, 15, "expected ',' or ')' in the property list of Mesh, found '{'");
    expectError("Mesh (1 = 2) {}", 1, 7, "expected a property identifier, found '1'");
    expectError("Mesh (a = my_value) {}", 1, 11, "expected a property value (bool, number, string");
    expectError("Mesh (a = #) {}", 1, 11, "found '#'");
    expectError("Mesh (a = 0x) {}", 1, 13, "expected a hexadecimal digit");
    expectError("Mesh (a = 0x1_0000_0000_0000_0000) {}", 1, 11, "does not fit in 64 bits");
    expectError("Mesh (a = \"x) {}", 1, 11, "unterminated string");
    expectError("Mesh (a = -) {}", 1, 11, "expected a property value after the sign");
    expectError("float (a = 1) {1}", 1, 7, "a primitive structure cannot have properties");
    expectError("Mesh (a = 1)", 1, 13, "expected '{' to open Mesh, found end of file");
}

TEST(OpenDdl, StructureTreeAndHelpers) {
    std::string text =
        "Metric (key = \"up\") { string { \"z\" } }\n"
        "GeometryNode $node1 {\n"
        "  Name {string {\"Box\"}}\n"
        "  ObjectRef {ref {$geometry1}}\n"
        "  Transform {float[16] {{1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1}}}\n"
        "  Transform %second {float[16] {{2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1}}}\n"
        "}\n"
        "GeometryObject $geometry1 {}";
    Document doc = parseOk(text);
    ASSERT_EQ(doc.roots().size(), 3u);
    EXPECT_EQ(doc.structureCount(), 12u);
    const Structure* metric = doc.roots()[0];
    EXPECT_EQ(metric->identifier, "Metric");
    EXPECT_FALSE(metric->hasName);
    EXPECT_EQ(metric->parent, nullptr);
    EXPECT_EQ(metric->offset, 0u);
    EXPECT_EQ(metric->endOffset, text.find('\n'));
    const Structure* node = doc.roots()[1];
    EXPECT_EQ(node->offset, text.find("GeometryNode"));
    EXPECT_EQ(node->endOffset, text.find("}\nGeometryObject") + 1);
    ASSERT_EQ(node->children.size(), 4u);
    for (const Structure* c : node->children) EXPECT_EQ(c->parent, node);
    EXPECT_EQ(node->child("Name")->firstPrimitive()->data.strings[0], "Box");
    EXPECT_EQ(node->child("Name")->firstPrimitive()->parent, node->child("Name"));
    auto transforms = node->childrenNamed("Transform");
    ASSERT_EQ(transforms.size(), 2u);
    EXPECT_EQ(transforms[1]->name.identifier, "second");
    EXPECT_FALSE(transforms[1]->name.global);
    EXPECT_EQ(transforms[1]->firstPrimitive()->data.as<float>()[0], 2.0f);
    EXPECT_EQ(transforms[0]->firstPrimitive()->identifier, "float");
    EXPECT_EQ(transforms[0]->firstPrimitive()->offset, text.find("float[16]"));
    EXPECT_EQ(node->child("Missing"), nullptr);
    EXPECT_TRUE(node->childrenNamed("Missing").empty());
    EXPECT_EQ(node->firstPrimitive(), nullptr);
    const Structure* refs = node->child("ObjectRef")->firstPrimitive();
    EXPECT_EQ(doc.resolve(refs->data.refs[0], refs), doc.roots()[2]);
    // The primitive's name and identifier are views into the source.
    EXPECT_EQ(metric->property("key")->value.text, "up");
}

TEST(OpenDdl, UnknownStructuresKeptWithChildren) {
    Document doc = parseOk(
        "Extension (applic = \"Blender\", type = \"Property\") {\n"
        "  Future_Thing $ft { Deeper { int32 {42} } float {3.14} }\n"
        "  x1 {}  // reserved identifiers are kept too\n"
        "}");
    ASSERT_EQ(doc.roots().size(), 1u);
    const Structure* ext = doc.roots()[0];
    DataType t;
    EXPECT_TRUE(ext->property("type")->value.asType(t) == false);  // a string here, not a type
    ASSERT_EQ(ext->children.size(), 2u);
    const Structure* future = ext->children[0];
    EXPECT_EQ(future->identifier, "Future_Thing");
    EXPECT_EQ(doc.findGlobal("ft"), future);
    ASSERT_EQ(future->children.size(), 2u);
    EXPECT_EQ(future->child("Deeper")->firstPrimitive()->data.as<int32_t>()[0], 42);
    EXPECT_EQ(future->firstPrimitive()->data.as<float>()[0], 3.14f);
    EXPECT_EQ(ext->children[1]->identifier, "x1");
}

TEST(OpenDdl, CommentsWhereverWhitespaceGoes) {
    Document doc = parseOk(
        "/*a*/Node/*b*/$n/*c*/(/*d*/p/*e*/=/*f*/1/*g*/,//h\n q = \"s\"/*i*/)/*j*/{/*k*/\n"
        "  float/*l*/[/*m*/2/*n*/]/*o*/*/*p*/%f/*q*/{/*r*/S/*s*/{/*t*/1/*u*/,/*v*/2/*w*/}/*x*/}//y\n"
        "  ref // z\n {$n// q\n }\n"
        "/**/}/* end */ // end\n/***/ /*/ still a comment */");
    ASSERT_EQ(doc.roots().size(), 1u);
    const Structure* n = doc.roots()[0];
    EXPECT_EQ(n->name.identifier, "n");
    ASSERT_EQ(n->properties.size(), 2u);
    EXPECT_EQ(n->property("q")->value.text, "s");
    ASSERT_EQ(n->children.size(), 2u);
    const Structure* f = n->children[0];
    EXPECT_EQ(f->name.identifier, "f");
    EXPECT_TRUE(f->data.hasStates);
    EXPECT_EQ(f->data.states.size(), 1u);
    EXPECT_EQ(f->data.states[0].second, "S");
    EXPECT_EQ(f->data.as<float>()[1], 2.0f);
    EXPECT_EQ(n->children[1]->data.refs[0].toString(), "$n");
    // Names may follow the identifier with no space, as in the spec.
    Document tight = parseOk("Vertex$apex{float{1,2,3}}");
    EXPECT_EQ(tight.roots()[0]->name.identifier, "apex");
}

// ---------------------------------------------------------------------------------------------
// Errors: structure level

TEST(OpenDdl, StructureErrorsWithPositions) {
    expectError("Node {\n  Mesh {\n    float {1}\n  }\n", 5, 1,
                "expected '}' to close Node (opened at line 1), found end of file");
    expectError("Node {}\n}", 2, 1, "unexpected '}' at the top level");
    expectError("Node {}\n#", 2, 1, "expected a structure identifier, found '#'");
    expectError("Node { 12 }", 1, 8, "expected a structure identifier or '}', found '12'");
    expectError("Node { \xC3\xA9 }", 1, 8, "found byte 0xC3");
    expectError(std::string("Node {\n\0}", 9), 2, 1, "found byte 0x00");
    expectError("Node", 1, 5, "expected '{' to open Node, found end of file");
    expectError("Node $ {}", 1, 7, "expected an identifier right after '$', found a space");
    expectError("Node $a $b {}", 1, 9, "expected '{' to open Node, found '$'");
    expectError("float", 1, 6, "expected '{' to open the data of float, found end of file");
    expectError("float {1, 2", 1, 12, "expected ',' or '}' in a float list, found end of file");
    expectError("float {1,\n2\n", 3, 1, "expected ',' or '}' in a float list, found end of file");
    expectError("Node {}\n/* never closed\n", 2, 1, "unterminated comment");
    expectError("Node { float {1 /* open", 1, 17, "unterminated comment");
    expectError("Node {} */", 1, 9, "expected a structure identifier, found '*'");
    expectError("Node {} /", 1, 9, "found '/'");
    // Long tokens are cut short in messages.
    ParseError longToken = parseFail("Node { " + std::string(200, '7') + " }");
    EXPECT_NE(longToken.message.find("found '" + std::string(40, '7') + "...'"), std::string::npos)
        << longToken.message;
    EXPECT_LT(longToken.message.size(), 120u);
    expectError("Node {\r\n\tfloat {1, x}\r\n}", 2, 12, "found 'x'");
}

TEST(OpenDdl, NestingDepthCap) {
    std::string ok, tooDeep;
    for (int i = 0; i < 127; ++i) ok += "A{";
    ok += "float{1}";
    for (int i = 0; i < 127; ++i) ok += "}";
    Document doc = parseOk(ok);
    EXPECT_EQ(doc.structureCount(), 128u);
    for (int i = 0; i < 128; ++i) tooDeep += "A{";
    tooDeep += "float{1}";
    for (int i = 0; i < 128; ++i) tooDeep += "}";
    expectError(tooDeep, 1, 257, "nesting deeper than 128 structures");
    ParseOptions shallow;
    shallow.maxDepth = 2;
    parseOk("A { B {} C {} } D { float {} }", shallow);
    expectError("A {\n B {\n  C {} } }", 3, 3, "nesting deeper than 2 structures", shallow);
    // A million open braces: an error at the cap, no recursion.
    std::string huge;
    for (int i = 0; i < 1000000; ++i) huge += "A{";
    expectError(huge, 1, 257, "nesting deeper than 128");
}

TEST(OpenDdl, DuplicateNames) {
    expectError("A $x {}\nB {\n  C $x {} }", 3, 5, "duplicate global name '$x' (first given at line 1)");
    expectError("A { B %p {}\n C %p {} }", 2, 4, "duplicate local name '%p' (first given at line 1");
    expectError("float %v {1}\nfloat %v {2}", 2, 7, "duplicate local name '%v'");
    // Local names repeat in different structures and may equal global names.
    Document doc = parseOk("A { B %p {} } C { B %p {} D { E %p {} } } F $p {} G %p {}");
    EXPECT_EQ(doc.findGlobal("p")->identifier, "F");
    // The earliest duplicate in the file is reported.
    expectError("A $g {} B { C %l {} D %l {} } E $g {}", 1, 23, "duplicate local name '%l'");
}

TEST(OpenDdl, LocateLinesAndColumns) {
    Document doc = parseOk("A {}\n\nB {}\r\n  C {}");
    int line = 0, column = 0;
    doc.locate(0, line, column);
    EXPECT_EQ(line, 1);
    EXPECT_EQ(column, 1);
    doc.locate(5, line, column);
    EXPECT_EQ(line, 2);
    EXPECT_EQ(column, 1);
    doc.locate(8, line, column);
    EXPECT_EQ(line, 3);
    EXPECT_EQ(column, 3);
    EXPECT_EQ(doc.roots()[2]->offset, 14u);
    doc.locate(doc.roots()[2]->offset, line, column);
    EXPECT_EQ(line, 4);
    EXPECT_EQ(column, 3);
    doc.locate(1000, line, column);  // clamped to the end
    EXPECT_EQ(line, 4);
    EXPECT_EQ(column, 7);
}

TEST(OpenDdl, DocumentReusedAndMoved) {
    Document doc;
    ParseError e;
    ASSERT_TRUE(doc.parse(bytesOf("A $a {} B {}"), e));
    EXPECT_EQ(doc.roots().size(), 2u);
    EXPECT_FALSE(doc.parse(bytesOf("A {"), e));
    EXPECT_TRUE(doc.roots().empty());
    EXPECT_EQ(doc.structureCount(), 0u);
    EXPECT_EQ(doc.findGlobal("a"), nullptr);
    ASSERT_TRUE(doc.parse(bytesOf("C $c {float {1}}"), e));
    Document moved = std::move(doc);
    ASSERT_EQ(moved.roots().size(), 1u);
    EXPECT_EQ(moved.findGlobal("c"), moved.roots()[0]);
    EXPECT_EQ(moved.roots()[0]->firstPrimitive()->data.as<float>()[0], 1.0f);
}

TEST(OpenDdl, LargeArraysAndManyStructures) {
    std::string text = "VertexArray { float[3] {";
    for (int i = 0; i < 100000; ++i) {
        if (i) text += ", ";
        text += "{" + std::to_string(i) + ".5, -" + std::to_string(i) + ".25, 1e-3}";
    }
    text += "} }\n";
    for (int i = 0; i < 2000; ++i) text += "N $n" + std::to_string(i) + " { u32 {" + std::to_string(i) + "} }\n";
    Document doc = parseOk(text);
    ASSERT_EQ(doc.roots().size(), 2001u);
    const PrimitiveData& d = doc.roots()[0]->firstPrimitive()->data;
    ASSERT_EQ(d.subarrayCount(), 100000u);
    const float* f = d.as<float>();
    EXPECT_EQ(f[3 * 99999], 99999.5f);
    EXPECT_EQ(f[3 * 99999 + 1], -99999.25f);
    EXPECT_EQ(f[3 * 5 + 2], 1e-3f);
    EXPECT_EQ(doc.findGlobal("n1234")->firstPrimitive()->data.as<uint32_t>()[0], 1234u);
}

// ---------------------------------------------------------------------------------------------
// Numeric arrays converted on a second thread (ParseOptions::parallelBytes / deferBytes): the
// document and the errors must be exactly those of a parse on one thread.

ParseOptions sequentialOptions() {
    ParseOptions o;
    o.parallelBytes = std::numeric_limits<size_t>::max();
    return o;
}

// Every array deferred to a thread of the test's, whatever the text's size.
ParseOptions parallelOptions() {
    static ThreadWorker worker;
    ParseOptions o;
    o.parallelBytes = 0;
    o.deferBytes = 1;
    o.worker = &worker;
    return o;
}

// Structure by structure: identifiers, names, data bytes, states and text data.
void expectSameDocuments(const Document& a, const Document& b) {
    ASSERT_EQ(a.structureCount(), b.structureCount());
    std::vector<const Structure*> pa(a.roots().begin(), a.roots().end()), pb(b.roots().begin(), b.roots().end());
    size_t compared = 0;
    while (!pa.empty()) {
        ASSERT_EQ(pa.size(), pb.size());
        const Structure* x = pa.back();
        const Structure* y = pb.back();
        pa.pop_back();
        pb.pop_back();
        ASSERT_EQ(x->identifier, y->identifier);
        ASSERT_EQ(x->offset, y->offset);
        ASSERT_EQ(x->endOffset, y->endOffset);
        ASSERT_EQ(x->primitive, y->primitive);
        if (x->primitive) {
            EXPECT_EQ(x->data.type, y->data.type);
            EXPECT_EQ(x->data.arraySize, y->data.arraySize);
            EXPECT_EQ(x->data.bytes, y->data.bytes) << "data of the structure at offset " << x->offset;
            EXPECT_EQ(x->data.states, y->data.states);
            EXPECT_EQ(x->data.strings, y->data.strings);
        }
        ASSERT_EQ(x->children.size(), y->children.size());
        pa.insert(pa.end(), x->children.begin(), x->children.end());
        pb.insert(pb.end(), y->children.begin(), y->children.end());
        ++compared;
    }
    EXPECT_EQ(compared, a.structureCount());
}

// A text with long arrays of every numeric type and layout, comments and character literals
// inside them, states, strings and references between them.
std::string mixedArrays(int n) {
    std::string t = "Metric (key = \"distance\") { float {1.0} }\n";
    t += "Geometry $g {\n  VertexArray (attrib = \"position\") { float[3] {";
    for (int i = 0; i < n; ++i) t += (i ? ", " : "") + std::string("{") + std::to_string(i) + ".125, -" + std::to_string(i % 97) + "e-2, 0x3F800000}";
    t += "} }\n  VertexArray { double /* inline */ {";
    for (int i = 0; i < n; ++i) t += (i ? ",\n" : "") + std::to_string(i) + ".0078125 // comment, with a comma }\n";
    t += "} }\n  IndexArray { unsigned_int16[3]* {";
    for (int i = 0; i < n; ++i) t += std::string(i ? ", " : "") + (i % 50 == 0 ? "s" + std::to_string(i % 3) + " " : "") + "{" + std::to_string(i % 65536) + ", 0x1F, 'a'}";
    t += "} }\n  Data { int8 {";
    for (int i = 0; i < n; ++i) t += (i ? ", " : "") + std::to_string(i % 256 - 128);
    t += "} }\n  Data { half {";
    for (int i = 0; i < n; ++i) t += (i ? ", " : "") + std::to_string(i % 1000) + ".5";
    t += "} }\n  Data { bool {";
    for (int i = 0; i < n; ++i) t += (i ? ", " : "") + std::string(i % 3 ? "true" : "false");
    t += "} }\n  Data { int64 {";
    for (int i = 0; i < n; ++i) t += (i ? ", " : "") + std::to_string(int64_t(i) * -1000000007LL);
    t += "} }\n  Name { string {\"geometry\"} }\n  Ref { ref {$g} }\n}\n";
    return t;
}

// mixedArrays' numeric lists: Metric's float, two vertex arrays, the index array and four data
// arrays (the string and the reference are not numeric).
constexpr size_t kMixedNumericLists = 8;

TEST(OpenDdlParallel, SameDocumentAsOneThread) {
    const std::string text = mixedArrays(3000);
    Document one = parseOk(text, sequentialOptions());
    Document two = parseOk(text, parallelOptions());
    expectSameDocuments(one, two);
    // Every numeric list went through the second-thread conversion, and its result was kept: the
    // text was not parsed again on one thread.
    EXPECT_EQ(one.deferredLists(), 0u);
    EXPECT_FALSE(one.reparsedOnOneThread());
    EXPECT_EQ(two.deferredLists(), kMixedNumericLists);
    EXPECT_LE(two.secondThreadLists(), two.deferredLists());
    EXPECT_FALSE(two.reparsedOnOneThread());
    // The arrays really are what the text says (not merely the same on both paths).
    const Structure* g = two.findGlobal("g");
    ASSERT_NE(g, nullptr);
    const PrimitiveData& positions = g->children[0]->firstPrimitive()->data;
    ASSERT_EQ(positions.subarrayCount(), 3000u);
    EXPECT_EQ(positions.as<float>()[3 * 2999], 2999.125f);
    EXPECT_EQ(positions.as<float>()[3 * 2999 + 2], 1.0f);
    const PrimitiveData& indices = g->children[2]->firstPrimitive()->data;
    EXPECT_EQ(indices.as<uint16_t>()[3 * 100 + 2], uint16_t('a'));
    EXPECT_EQ(indices.states.size(), 60u);
}

// A worker that counts what it is asked and runs the job as `mode` says: on a thread of its own
// (optionally after giving that thread a head start), on the calling thread, later (kept until
// runLater), or not at all (false, or std::system_error thrown).
class TestWorker final : public Worker {
public:
    enum class Mode { Thread, HeadStart, Inline, Later, Refuse, Throw };
    explicit TestWorker(Mode mode) : m_mode(mode) {}
    bool run(std::function<void()> job) override {
        ++asked;
        switch (m_mode) {
            case Mode::Thread: return m_thread.run(std::move(job));
            case Mode::HeadStart:
                if (!m_thread.run(std::move(job))) return false;
                // Long enough for the thread to take the array queued before this call.
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                return true;
            case Mode::Inline: job(); return true;
            case Mode::Later: m_kept = std::move(job); return true;
            case Mode::Refuse: return false;
            case Mode::Throw: throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
        }
        return false;
    }
    void runLater() {
        if (m_kept) m_kept();
        m_kept = nullptr;
    }
    int asked = 0;

private:
    Mode m_mode;
    ThreadWorker m_thread;
    std::function<void()> m_kept;
};

ParseOptions withWorker(Worker& worker) {
    ParseOptions o;
    o.worker = &worker;
    return o;
}

TEST(OpenDdlParallel, DefaultOptionsUseTheWorkerOnLargeTexts) {
    // Over 1 MiB of text with arrays of more than 32 KiB: the default options with a worker take
    // the parallel path. The result must equal the one-thread parse.
    const std::string text = mixedArrays(40000);
    ASSERT_GT(text.size(), size_t(1) << 20);
    Document one = parseOk(text, sequentialOptions());
    TestWorker worker(TestWorker::Mode::Thread);
    Document two = parseOk(text, withWorker(worker));
    expectSameDocuments(one, two);
    // The seven long lists (over 32 KiB of text each) were converted apart and kept; the worker
    // was asked once, at the first of them.
    EXPECT_EQ(two.deferredLists(), 7u);
    EXPECT_LE(two.secondThreadLists(), two.deferredLists());
    EXPECT_FALSE(two.reparsedOnOneThread());
    EXPECT_EQ(worker.asked, 1);
    // Without a worker the parser starts no thread: one thread reads everything.
    Document alone = parseOk(text);
    expectSameDocuments(one, alone);
    EXPECT_EQ(alone.deferredLists(), 0u);
    EXPECT_EQ(alone.secondThreadLists(), 0u);
    // A short text never asks the worker.
    TestWorker idle(TestWorker::Mode::Thread);
    Document small = parseOk(mixedArrays(100), withWorker(idle));
    EXPECT_EQ(small.deferredLists(), 0u);
    EXPECT_EQ(idle.asked, 0);
}

TEST(OpenDdlParallel, TheWorkersThreadConvertsLists) {
    // Given a head start, the worker's thread takes the first long list while the parse reads on.
    const std::string text = mixedArrays(40000);
    TestWorker worker(TestWorker::Mode::HeadStart);
    Document two = parseOk(text, withWorker(worker));
    expectSameDocuments(parseOk(text, sequentialOptions()), two);
    EXPECT_EQ(two.deferredLists(), 7u);
    EXPECT_GE(two.secondThreadLists(), 1u);
    EXPECT_FALSE(two.reparsedOnOneThread());
    EXPECT_EQ(worker.asked, 1);
}

TEST(OpenDdlParallel, AWorkerThatRefusesLeavesTheListsToTheParsingThread) {
    const std::string text = mixedArrays(40000);
    const Document one = parseOk(text, sequentialOptions());
    // Refused (false or std::system_error): asked again at each long list, all of them converted by
    // the parsing thread once it has read the text.
    for (TestWorker::Mode mode : {TestWorker::Mode::Refuse, TestWorker::Mode::Throw}) {
        TestWorker worker(mode);
        Document two = parseOk(text, withWorker(worker));
        expectSameDocuments(one, two);
        EXPECT_EQ(two.deferredLists(), 7u);
        EXPECT_EQ(two.secondThreadLists(), 0u);
        EXPECT_FALSE(two.reparsedOnOneThread());
        EXPECT_EQ(worker.asked, 7);
    }
    // Run on the calling thread: the job returns at once (waiting there for the parse would never
    // end) and the parsing thread converts the lists.
    TestWorker inlineWorker(TestWorker::Mode::Inline);
    Document two = parseOk(text, withWorker(inlineWorker));
    expectSameDocuments(one, two);
    EXPECT_EQ(two.deferredLists(), 7u);
    EXPECT_EQ(two.secondThreadLists(), 0u);
    EXPECT_EQ(inlineWorker.asked, 1);
}

TEST(OpenDdlParallel, AJobRunAfterTheParseLeavesTheDocumentAlone) {
    const std::string text = mixedArrays(40000);
    const Document one = parseOk(text, sequentialOptions());
    TestWorker worker(TestWorker::Mode::Later);
    {
        Document two = parseOk(text, withWorker(worker));
        expectSameDocuments(one, two);
        EXPECT_EQ(two.deferredLists(), 7u);
        EXPECT_EQ(two.secondThreadLists(), 0u);
        EXPECT_EQ(worker.asked, 1);
    }
    // The document and its text are gone: the job must return without touching them (a sanitizer
    // build would report it).
    worker.runLater();
    // The same for an error in a deferred list, which is then parsed again on one thread.
    std::string broken = text;
    broken.replace(broken.find("150.125"), 7, "150.1x5");
    TestWorker late(TestWorker::Mode::Later);
    const ParseError e1 = parseFail(broken, sequentialOptions());
    const ParseError e2 = parseFail(broken, withWorker(late));
    EXPECT_EQ(e1.offset, e2.offset);
    EXPECT_EQ(e1.message, e2.message);
    late.runLater();
}

TEST(OpenDdlParallel, ErrorsAreTheFirstInTheFile) {
    const std::string good = mixedArrays(200);
    // Breaks at several places: inside deferred arrays (a bad element, a missing brace, a wrong
    // subarray size, an unterminated comment), in the structure around them, and both at once.
    std::vector<std::string> broken;
    auto replaceAt = [&](const std::string& what, const std::string& with, size_t nth = 0) {
        std::string t = good;
        size_t at = 0;
        for (size_t k = 0; k <= nth; ++k) {
            at = t.find(what, k ? at + 1 : 0);
            if (at == std::string::npos) return;
        }
        t.replace(at, what.size(), with);
        broken.push_back(t);
    };
    replaceAt("150.125", "150.1x5");
    replaceAt("{57, 0x1F, 'a'}", "{57, 0x1F}");
    replaceAt("{57, 0x1F, 'a'}", "{57, 0x1F, 'a', 4}");
    replaceAt("77.0078125", "77.0078125 /* never closed");
    replaceAt("true, false", "true false");
    replaceAt("-128, -127", "-128, -129");
    replaceAt("Name {", "Name (");
    replaceAt("} }\n  Data { half", "}\n  Data { half");
    replaceAt("{199.125", "{199.125 }");
    broken.push_back(good.substr(0, good.size() / 2));
    {
        std::string t = good;
        t.replace(t.find("150.125"), 7, "150.1x5");
        t.replace(t.find("Name {"), 6, "Name (");
        broken.push_back(t);
    }
    ASSERT_GE(broken.size(), 10u);
    for (const std::string& text : broken) {
        const ParseError one = parseFail(text, sequentialOptions());
        const ParseError two = parseFail(text, parallelOptions());
        EXPECT_EQ(one.offset, two.offset) << one.message;
        EXPECT_EQ(one.line, two.line);
        EXPECT_EQ(one.column, two.column);
        EXPECT_EQ(one.message, two.message);
    }
    // An error inside a deferred list makes the second-thread result unusable: the text is parsed
    // again on one thread, and the document says so.
    Document doc;
    ParseError error;
    EXPECT_FALSE(doc.parse(bytesOf(broken[0]), error, parallelOptions()));
    EXPECT_TRUE(doc.reparsedOnOneThread());
    EXPECT_EQ(doc.deferredLists(), 0u);
    // The same document parses cleanly afterwards and the flag is cleared.
    EXPECT_TRUE(doc.parse(bytesOf(good), error, parallelOptions()));
    EXPECT_FALSE(doc.reparsedOnOneThread());
    EXPECT_EQ(doc.deferredLists(), kMixedNumericLists);
}

// ---------------------------------------------------------------------------------------------
// The block scanner (ParseOptions::blockScan): numeric lists in the plain form are read 64 bytes
// at a time. Whatever the text, the document and the first error must be exactly those of the
// element-by-element reader.

ParseOptions elementOptions() {
    ParseOptions o = sequentialOptions();
    o.blockScan = false;
    return o;
}

// The block scanner's baseline vector build (SSE2 on x86-64, also where the processor would take
// the AVX2 one; NEON on 64-bit ARM).
ParseOptions sse2Options() {
    ParseOptions o = sequentialOptions();
    o.blockScanAvx2 = false;
    return o;
}

// The block scanner's plain C++ build, which every processor runs.
ParseOptions portableOptions() {
    ParseOptions o = sequentialOptions();
    o.blockScanVector = false;
    return o;
}

// Every build of the block scanner this processor can run: the default, the baseline vector build
// and the plain C++ one.
std::vector<ParseOptions> scannerBuilds() { return {sequentialOptions(), sse2Options(), portableOptions()}; }

// The element reader and every build of the block scanner on one text: the same document, or
// the same error.
void expectSameAsElementReader(const std::string& text) {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(text.begin(), text.end());
    Document element;
    ParseError ee;
    const bool ok = element.parse(bytes, ee, elementOptions());
    for (const ParseOptions& options : scannerBuilds()) {
        Document block;
        ParseError be;
        ASSERT_EQ(block.parse(bytes, be, options), ok) << text.substr(0, 200);
        if (ok) {
            expectSameDocuments(element, block);
        } else {
            EXPECT_EQ(be.offset, ee.offset) << text.substr(0, 200);
            EXPECT_EQ(be.message, ee.message) << text.substr(0, 200);
        }
    }
}

// The block scanner is built for every processor (plain C++ where there is no vector build).
constexpr bool kScannerBuilt = true;

// Lists the block scanner takes: every type it reads, flat and in subarrays, with whitespace of
// every kind and width (runs longer than a block too), literals of every length at every offset
// from a block boundary (the prefix shifts them), exponents, long mantissas and signed zeros.
std::string plainLists(size_t shift, uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    std::string wide(70, ' ');
    auto gap = [&]() -> std::string {
        int k = pick(12);
        if (k < 6) return " ";
        if (k < 8) return "";
        if (k < 11) return k == 8 ? "\n\t\t\t" : k == 9 ? "\r\n  " : "\t";
        return wide + "\n" + wide;
    };
    auto floatLiteral = [&]() -> std::string {
        switch (pick(10)) {
            case 0: return std::to_string(pick(100000));
            case 1: return "-0";
            case 2: return "0." + std::to_string(pick(100000000));
            case 3: return "-" + std::to_string(pick(1000)) + "." + std::to_string(pick(1000000));
            case 4: return std::to_string(pick(1000)) + "e-" + std::to_string(pick(30));
            case 5: return "123456789." + std::to_string(pick(100000));  // more than 8 whole digits
            case 6: return "0.000000000" + std::to_string(1 + pick(9999999));  // more than 8 fraction digits
            case 7: return "." + std::to_string(pick(1000));
            case 8: return std::to_string(pick(100)) + ".";
            default: return "3.4028234e38";
        }
    };
    auto intLiteral = [&](bool isSigned, uint64_t max) -> std::string {
        uint64_t v = max < 1000 ? rng() % (max + 1) : (pick(4) == 0 ? max : uint64_t(rng()) * rng() % (max + 1));
        if (isSigned && pick(2)) return "-" + std::to_string(v == 0 ? 0 : v - (pick(2) ? 0 : 1));
        return std::to_string(v);
    };
    std::string t(shift, ' ');
    struct Kind {
        const char* name;
        bool isFloat;
        bool isSigned;
        uint64_t max;
    };
    const Kind kinds[] = {{"float", true, false, 0},           {"double", true, false, 0},
                          {"int8", false, true, 127},          {"int16", false, true, 32767},
                          {"int32", false, true, 2147483647},  {"int64", false, true, 9007199254740991ull},
                          {"uint8", false, false, 255},        {"uint16", false, false, 65535},
                          {"unsigned_int32", false, false, 4294967295u}, {"u64", false, false, 9999999999999999ull}};
    for (const Kind& kind : kinds) {
        for (uint32_t arraySize : {0u, 1u, 2u, 3u, 4u, 16u}) {
            const int elements = int(arraySize ? arraySize * (1 + pick(40)) : 1 + pick(200));
            t += std::string("Data {") + gap() + kind.name + (arraySize ? "[" + std::to_string(arraySize) + "]" : "") +
                 gap() + "{" + gap();
            for (int i = 0; i < elements; ++i) {
                if (arraySize && i % int(arraySize) == 0) t += (i ? "}" + gap() + "," + gap() : "") + "{" + gap();
                else if (i) t += gap() + "," + gap();
                t += kind.isFloat ? floatLiteral() : intLiteral(kind.isSigned, kind.max);
            }
            t += gap() + (arraySize ? "}" + gap() : "") + "}" + gap() + "}\n";
        }
    }
    return t;
}

// The vector build each processor family gets (the ARM builds run this under qemu-user).
TEST(OpenDdlBlockScan, EachProcessorHasItsBuild) {
    const std::string build = blockScanInstructionSet();
#if defined(__aarch64__)
    EXPECT_EQ(build, "NEON");
#elif defined(__x86_64__)
    EXPECT_TRUE(build == "SSE2" || build == "AVX2") << build;
#else
    EXPECT_EQ(build, "portable");
#endif
    EXPECT_EQ(std::string(blockScanInstructionSet(false)), "portable");
}

TEST(OpenDdlBlockScan, PlainListsAsTheElementReaderReadsThem) {
    size_t scanned = 0, lists = 0;
    for (size_t shift = 0; shift < 64; ++shift) {
        const std::string text = plainLists(shift, uint32_t(shift * 7919 + 1));
        Document element = parseOk(text, elementOptions());
        EXPECT_EQ(element.blockScannedLists(), 0u);
        for (const ParseOptions& options : scannerBuilds()) {
            Document block = parseOk(text, options);
            expectSameDocuments(element, block);
            scanned += block.blockScannedLists();
            lists += block.roots().size();
        }
    }
    // Every list is in the plain form, so the scanner read them all.
    EXPECT_EQ(scanned, kScannerBuilt ? lists : 0u);
}

TEST(OpenDdlBlockScan, ValuesFromTheText) {
    const std::string text =
        "float {0.685881, -0.292262, 6.12323e-17, -0, .5, 2., 16777216, 16777217, 0.1, 123456789.25}\n"
        "double[2] {{0.1, -1e-300}, {12345678901234567, 3.141592653589793}}\n"
        "int8 {-128, 127, -0} uint16[3] {{0, 65535, 7},\n\t{8, 9, 10}} int64 {-9223372036854775808, 1234567890123456}\n";
    Document doc = parseOk(text);
    const std::vector<Structure*>& r = doc.roots();
    ASSERT_EQ(r.size(), 5u);
    EXPECT_EQ(doc.blockScannedLists(), kScannerBuilt ? 4u : 0u);  // int64's 19-digit minimum goes element by element
    const float* f = r[0]->data.as<float>();
    ASSERT_EQ(r[0]->data.elementCount(), 10u);
    EXPECT_EQ(f[0], 0.685881f);
    EXPECT_EQ(f[1], -0.292262f);
    EXPECT_EQ(f[2], 6.12323e-17f);
    EXPECT_TRUE(f[3] == 0.0f && std::signbit(f[3]));
    EXPECT_EQ(f[4], 0.5f);
    EXPECT_EQ(f[5], 2.0f);
    EXPECT_EQ(f[6], 16777216.0f);
    EXPECT_EQ(f[7], 16777216.0f);  // 2^24 + 1 rounds to even
    EXPECT_EQ(f[8], 0.1f);
    EXPECT_EQ(f[9], 123456789.25f);
    const double* d = r[1]->data.as<double>();
    EXPECT_EQ(d[0], 0.1);
    EXPECT_EQ(d[1], -1e-300);
    EXPECT_EQ(d[2], 12345678901234568.0);
    EXPECT_EQ(d[3], 3.141592653589793);
    const int8_t* i8 = r[2]->data.as<int8_t>();
    EXPECT_EQ(i8[0], -128);
    EXPECT_EQ(i8[1], 127);
    EXPECT_EQ(i8[2], 0);
    const uint16_t* u16 = r[3]->data.as<uint16_t>();
    ASSERT_EQ(r[3]->data.elementCount(), 6u);
    EXPECT_EQ(u16[1], 65535);
    EXPECT_EQ(u16[5], 10);
    EXPECT_EQ(r[4]->data.as<int64_t>()[0], std::numeric_limits<int64_t>::min());
    EXPECT_EQ(r[4]->data.as<int64_t>()[1], 1234567890123456);
}

TEST(OpenDdlBlockScan, ListsOutsideThePlainFormGoElementByElement) {
    // Each is valid OpenDDL that the scanner leaves alone; the values must still be right.
    const char* texts[] = {
        "float {1, 2 /* comment */, 3}",  "float {1, 2, // comment\n 3}", "float {0x3F800000, 2}",
        "uint8 {'a', 2}",                 "uint16 {0b101, 0o17}",       "float {+1, 2}",
        "float {- 1, 2}",                 "uint32 {1_000, 2}",          "float[2]* {s {1, 2}, {3, 4}}",
        "uint32 {}",                      "float[2] {}",                "float[2] {{1, 2}, {}}",
    };
    for (const char* text : texts) {
        SCOPED_TRACE(text);
        expectSameAsElementReader(text);
        Document doc;
        ParseError e;
        doc.parse(std::make_shared<const std::vector<uint8_t>>(text, text + std::strlen(text)), e, sequentialOptions());
        EXPECT_EQ(doc.blockScannedLists(), 0u);
    }
    Document doc = parseOk("float {1, 2 /* c */, 3}  uint16 {0b101, 0o17}");
    EXPECT_EQ(doc.roots()[0]->data.as<float>()[2], 3.0f);
    EXPECT_EQ(doc.roots()[1]->data.as<uint16_t>()[1], 15);
}

TEST(OpenDdlBlockScan, ErrorsAreTheElementReadersErrors) {
    const char* texts[] = {
        "float {1, 2,, 3}",          "float {1, 2, 3,}",           "float {, 1}",              "float {1 2}",
        "float {1.2.3, 4}",          "float {-+1}",                "float {1e, 2}",            "float {-, 2}",
        "float {., 2}",              "float {1e39}",               "double {1e309}",           "int8 {1, 128}",
        "int8 {-129}",               "uint16 {-1}",                "uint8 {256}",              "uint32 {4294967296}",
        "uint64 {18446744073709551616}", "float {1, 2a}",          "float {1, x}",             "float[2] {{1, 2} {3, 4}}",
        "float[2] {{1, 2}, 3, 4}",   "float[2] {{1, 2, 3}}",       "float[2] {{1}, {2, 3}}",   "float[2] {{1, 2},}",
        "float[2] {{1, 2}}}",        "float[2] {{{1, 2}}}",        "float[2] {{1, 2},, {3, 4}}", "float[2] {1, 2}",
        "float {1, 2",               "float {1, {2}}",             "uint32 {1, 2}, 3}",        "float[3] {{1, 2, 3}, {4, 5, 6}, {7, 8}}",
    };
    for (const char* text : texts) {
        SCOPED_TRACE(text);
        expectSameAsElementReader(text);
        parseFail(text, sequentialOptions());
    }
}

TEST(OpenDdlBlockScan, RandomListsAgreeWithTheElementReader) {
    // Lists built from the pieces of the plain form and a few others, most of them near misses.
    const char* pieces[] = {"1", "-2", "0.5", "-0.25", "3e2", "7.", ".5", "12345678912", ",", ", ", ",",
                            " ", "\n", "{", "}", "}, {", "0x1F", "'a'", "/*c*/", "-", ".", "e", "1_0", "+1"};
    std::mt19937 rng(1234);
    const char* types[] = {"float", "double", "int8", "uint16", "int32", "uint64", "float[2]", "uint32[3]"};
    for (int iteration = 0; iteration < 4000; ++iteration) {
        std::string text = std::string(rng() % 70, ' ') + types[rng() % 8] + " {";
        const bool sub = text.find('[') != std::string::npos;
        if (sub) text += "{";
        const int n = 1 + int(rng() % 40);
        for (int i = 0; i < n; ++i) {
            if (rng() % 8 == 0) {
                text += pieces[rng() % (sizeof pieces / sizeof *pieces)];
            } else {
                text += std::to_string(int(rng() % 200));
                text += i + 1 == n ? "" : (sub && rng() % 3 == 0 ? "}, {" : ", ");
            }
        }
        text += sub ? "}}" : "}";
        text += std::string(rng() % 3 ? rng() % 40 : 0, ' ');
        SCOPED_TRACE(text);
        expectSameAsElementReader(text);
        if (HasFailure()) break;
    }
}

// ---------------------------------------------------------------------------------------------
// The sample files

std::vector<std::filesystem::path> sampleFiles() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir() / "ogex"))
        if (entry.path().extension() == ".ogex") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::shared_ptr<const std::vector<uint8_t>> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::make_shared<const std::vector<uint8_t>>(std::istreambuf_iterator<char>(in),
                                                        std::istreambuf_iterator<char>());
}

TEST(OpenDdlSamples, EveryFileParses) {
    ESVIEW_REQUIRE_MODELS("ogex");
    auto files = sampleFiles();
    EXPECT_GE(files.size(), 17u);
    for (const auto& path : files) {
        Document doc;
        ParseError e;
        EXPECT_TRUE(doc.parse(readFile(path), e))
            << path.filename() << ":" << e.line << ":" << e.column << ": " << e.message;
        EXPECT_FALSE(doc.roots().empty()) << path.filename();
    }
}

TEST(OpenDdlSamples, FactsFromTheFiles) {
    ESVIEW_REQUIRE_MODELS("ogex");
    const auto dir = test::modelsDir() / "ogex";
    {
        Document doc;
        ParseError e;
        ASSERT_TRUE(doc.parse(readFile(dir / "lengyel_Example.ogex"), e)) << e.message;
        ASSERT_EQ(doc.roots().size(), 9u);  // 5 Metric, 2 GeometryNode, GeometryObject, Material
        EXPECT_EQ(doc.roots()[4]->property("key")->value.text, "forward");
        EXPECT_EQ(doc.roots()[4]->firstPrimitive()->data.strings[0], "x");
        const Structure* node1 = doc.findGlobal("node1");
        ASSERT_NE(node1, nullptr);
        const Structure* objectRef = node1->child("ObjectRef")->firstPrimitive();
        EXPECT_EQ(doc.resolve(objectRef->data.refs[0], objectRef), doc.findGlobal("geometry1"));
        const PrimitiveData& xf = node1->child("Transform")->firstPrimitive()->data;
        ASSERT_EQ(xf.elementCount(), 16u);
        EXPECT_EQ(floatBits(xf.as<float>()[12]), 0xBEF33B00u);  // written as a hex bit pattern
        EXPECT_EQ(xf.as<float>()[15], 1.0f);
        const Structure* mesh = doc.findGlobal("geometry1")->child("Mesh");
        const PrimitiveData& index = mesh->child("IndexArray")->firstPrimitive()->data;
        EXPECT_EQ(index.type, DataType::UInt32);
        EXPECT_EQ(index.subarrayCount(), 12u);
        EXPECT_EQ(mesh->childrenNamed("VertexArray").size(), 3u);
    }
    {
        Document doc;
        ParseError e;
        ASSERT_TRUE(doc.parse(readFile(dir / "assimp_Example.ogex"), e)) << e.message;
        const Structure* idx = doc.findGlobal("geometry1")->child("Mesh")->child("IndexArray")->firstPrimitive();
        EXPECT_EQ(idx->identifier, "unsigned_int32");
        EXPECT_EQ(idx->data.type, DataType::UInt32);
        EXPECT_EQ(idx->data.arraySize, 3u);
    }
    {
        Document doc;
        ParseError e;
        ASSERT_TRUE(doc.parse(readFile(dir / "squareys_CustomProperties.ogex"), e)) << e.message;
        const Structure* camera = doc.findGlobal("node2");
        ASSERT_NE(camera, nullptr);
        auto ext = camera->childrenNamed("Extension");
        ASSERT_EQ(ext.size(), 3u);
        EXPECT_EQ(ext[2]->children[1]->data.as<float>()[0], 31.4f);
        EXPECT_EQ(ext[1]->children[1]->data.as<int32_t>()[0], 42);
        EXPECT_EQ(doc.findGlobal("camera1")->childrenNamed("Param").size(), 3u);
    }
    {
        Document doc;
        ParseError e;
        ASSERT_TRUE(doc.parse(readFile(dir / "magnum_mesh.ogex"), e)) << e.message;
        ASSERT_EQ(doc.roots().size(), 4u);
        const Structure* mesh = doc.roots()[2]->child("Mesh");
        const PrimitiveData& idx = mesh->child("IndexArray")->firstPrimitive()->data;
        EXPECT_EQ(idx.type, DataType::UInt16);
        EXPECT_EQ(std::vector<uint16_t>(idx.as<uint16_t>(), idx.as<uint16_t>() + 6),
                  (std::vector<uint16_t>{2, 0, 1, 1, 2, 3}));
        EXPECT_EQ(doc.roots()[1]->child("Mesh")->childrenNamed("VertexArray")[4]->firstPrimitive()->data.elementCount(),
                  0u);
    }
    {
        Document doc;
        ParseError e;
        ASSERT_TRUE(doc.parse(readFile(dir / "squareys_Geometry.ogex"), e)) << e.message;
        const Structure* geometry = nullptr;
        for (const Structure* r : doc.roots())
            if (r->identifier == "GeometryObject") geometry = r;
        ASSERT_NE(geometry, nullptr);
        const PrimitiveData& idx = geometry->child("Mesh")->child("IndexArray")->firstPrimitive()->data;
        EXPECT_EQ(idx.subarrayCount(), 4872u);  // the exporter's comment says so
    }
}

// Every prefix of a sample, and every single-byte change at many positions, parses or fails
// cleanly (ASan/UBSan builds check the rest).
TEST(OpenDdlSamples, ParallelConversionGivesTheSameDocuments) {
    ESVIEW_REQUIRE_MODELS("ogex");
    for (const auto& path : sampleFiles()) {
        SCOPED_TRACE(path.filename().string());
        auto bytes = readFile(path);
        Document one, two;
        ParseError e1, e2;
        ASSERT_TRUE(one.parse(bytes, e1, sequentialOptions())) << e1.message;
        ASSERT_TRUE(two.parse(bytes, e2, parallelOptions())) << e2.message;
        expectSameDocuments(one, two);
    }
}

TEST(OpenDdlSamples, PrefixesAndByteFlips) {
    ESVIEW_REQUIRE_MODELS("ogex");
    auto full = readFile(test::modelsDir() / "ogex" / "lengyel_Example.ogex");
    ASSERT_GT(full->size(), 1000u);
    size_t parsedPrefixes = 0;
    for (size_t n = 0; n <= full->size(); ++n) {
        Document doc;
        ParseError e;
        auto prefix = std::make_shared<const std::vector<uint8_t>>(full->begin(), full->begin() + long(n));
        if (doc.parse(prefix, e)) {
            ++parsedPrefixes;
        } else {
            EXPECT_LE(e.offset, n);
            EXPECT_GE(e.line, 1);
            EXPECT_GE(e.column, 1);
            EXPECT_FALSE(e.message.empty());
        }
    }
    EXPECT_GE(parsedPrefixes, 10u);  // at least the ends of the top-level structures
    const uint8_t replacements[] = {0, '{', '}', '"', '/', '*', '$', '[', 'x', '9', 0xFF};
    for (size_t pos = 0; pos < full->size(); pos += 7) {
        for (uint8_t r : replacements) {
            auto changed = std::make_shared<std::vector<uint8_t>>(*full);
            (*changed)[pos] = r;
            Document doc, parallel;
            ParseError e, pe;
            const bool ok = doc.parse(changed, e);
            if (!ok) {
                EXPECT_LE(e.offset, changed->size());
            }
            // The two-thread parse agrees, to the error.
            ASSERT_EQ(parallel.parse(changed, pe, parallelOptions()), ok) << "byte " << pos;
            if (!ok) {
                EXPECT_EQ(pe.offset, e.offset) << "byte " << pos;
                EXPECT_EQ(pe.message, e.message) << "byte " << pos;
            }
        }
    }
}

}  // namespace
}  // namespace esv::ddl
