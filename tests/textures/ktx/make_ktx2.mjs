// Writes KTX 2.0 files with ktx-parse (npm), an independent KTX2 writer, from the level data the
// fixture generator (make_ktx_fixtures.py) prepared: node make_ktx2.mjs SPEC.json NODE_MODULES.
// Each spec entry names the header fields, the level files (already supercompressed where the
// scheme says so) with their uncompressed byte lengths, key/value pairs and the DFD's basic block.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [specPath, modules] = process.argv.slice(2);
const ktx = await import(pathToFileURL(join(modules, 'ktx-parse', 'dist', 'index.mjs')).href);
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
for (const entry of spec) {
    const c = ktx.createDefaultContainer();
    c.vkFormat = entry.vkFormat;
    c.typeSize = entry.typeSize;
    c.pixelWidth = entry.width;
    c.pixelHeight = entry.height;
    c.pixelDepth = 0;
    c.layerCount = entry.layers;
    c.faceCount = entry.faces;
    c.levelCount = entry.levelCount;
    c.supercompressionScheme = entry.scheme;
    c.levels = entry.levels.map((l) => ({
        levelData: new Uint8Array(readFileSync(l.file)),
        uncompressedByteLength: l.uncompressedByteLength,
    }));
    // The basic descriptor block: colour model, transfer function, texel block and its bytes
    // (ktx-parse aligns the levels by the block's byte length).
    const dfd = c.dataFormatDescriptor[0];
    dfd.colorModel = entry.dfd.colorModel;
    dfd.transferFunction = entry.dfd.transfer;
    dfd.texelBlockDimension = [entry.dfd.block[0] - 1, entry.dfd.block[1] - 1, 0, 0];
    dfd.bytesPlane = [entry.dfd.bytes, 0, 0, 0, 0, 0, 0, 0];
    for (const [k, v] of Object.entries(entry.keyValue || {})) c.keyValue[k] = v;
    if (entry.scheme === ktx.KHR_SUPERCOMPRESSION_BASISLZ)
        c.globalData = { endpointCount: 0, selectorCount: 0, imageDescs: [], endpointsData: new Uint8Array(0),
                         selectorsData: new Uint8Array(0), tablesData: new Uint8Array(0), extendedData: new Uint8Array(0) };
    writeFileSync(entry.out, ktx.write(c));
}
