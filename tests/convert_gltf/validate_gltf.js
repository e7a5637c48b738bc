// Runs the Khronos glTF-Validator on each file named after the module folder and prints one JSON
// line per file: {"file", "errors", "warnings", "issues": {code: {"severity", "count", "message"}}}.
// Usage: node validate_gltf.js NODE_MODULES_DIR FILE...
'use strict';
const fs = require('fs');
const path = require('path');

const validator = require(path.join(process.argv[2], 'gltf-validator'));

async function validate(file) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
            try {
                resolve(
                    new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri)))));
            } catch (e) {
                reject(e.toString());
            }
        }),
    });
    const issues = {};
    for (const m of report.issues.messages) {
        if (m.severity > 1) continue;  // information and hints
        const entry =
            issues[m.code] || (issues[m.code] = {severity: m.severity, count: 0, message: m.message});
        entry.count += 1;
    }
    return {file, errors: report.issues.numErrors, warnings: report.issues.numWarnings, issues};
}

(async () => {
    for (const file of process.argv.slice(3)) {
        let line;
        try {
            line = await validate(file);
        } catch (e) {
            line = {
                file,
                errors: 1,
                warnings: 0,
                issues: {VALIDATOR_FAILED: {severity: 0, count: 1, message: String(e)}}
            };
        }
        process.stdout.write(JSON.stringify(line) + '\n');
    }
})();
