#!/usr/bin/env bash
# Mutation testing, by hand and on purpose: each entry of the table below is a small plausible
# change to the code (a bug someone could write); the script applies it in a scratch clone, builds
# the test that should notice, runs it, restores the file, and prints killed (the test failed) or
# survived (it passed: a test is missing). Not run by CI: run it before resolving an issue, put the
# killed/survived counts in the note, and add a few entries for every capability an issue adds.
#
#   tools/mutate.sh [--scratch DIR] [--only ID] [--list]
#
# The scratch clone (default /tmp/esview-mutate) is made from this checkout's HEAD plus its
# uncommitted changes, and builds in its own folder with ccache, so a rerun costs a few files.
# Exit status: 0 when every mutation was killed, 1 when any survived or could not be applied.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=/tmp/esview-mutate
only=""
list=0
while [ $# -gt 0 ]; do
  case "$1" in
    --scratch) scratch=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --list) list=1; shift ;;
    *) echo "usage: tools/mutate.sh [--scratch DIR] [--only ID] [--list]" >&2; exit 2 ;;
  esac
done

# id | file | exact text | replacement | test target | gtest filter, separated by ' | ' (a space, a bar,
# a space; code holds no such run). The text must occur in the file: its first occurrence is
# replaced. Leading spaces do not count; "\n" is a newline.
read -r -d '' TABLE <<'EOF' || true
windows-base | scene/vertex_windows.cpp | out.submeshes.back().baseVertex = base; | (void)base; | test_scene | VertexWindows.*
windows-early | scene/vertex_windows.cpp | if (windowUsed && size + fresh > maxVertices) | if (windowUsed && size + fresh >= maxVertices) | test_scene | VertexWindows.*
pod-int16-scale | convert/pod/pod_shape.cpp | (src[v][c] - double(cf[c])) / double(sf[c]) * 32767.0) | (src[v][c] - double(cf[c])) / double(sf[c]) * 32766.0) | test_convert_pod | PodQuantize.*
awd-lzma-spec-first | loaders/awd/awd_format.cpp | candidates.push_back({"AWD spec", data[4], le32(data + 5), le32(data), 9}); | candidates.insert(candidates.begin(), {"AWD spec", data[4], le32(data + 5), le32(data), 9}); | test_awd_fixtures | AwdFixtures.*
awd-lzma-no-fallback | loaders/awd/awd_format.cpp | for (size_t i = 0; i < candidates.size(); ++i) { | for (size_t i = 0; i < 1; ++i) { | test_awd_fixtures | AwdFixtures.*
vp-file-dot | loaders/archive/vp_archive.cpp | if (name.empty() || name == "." || name == ".." || separator) { | if (name.empty() || name == ".." || separator) { | test_vp_archive | VpArchiveCheck.*
vp-file-dotdot | loaders/archive/vp_archive.cpp | if (name.empty() || name == "." || name == ".." || separator) { | if (name.empty() || name == "." || separator) { | test_vp_archive | VpArchiveCheck.*
vp-folder-dot | loaders/archive/vp_archive.cpp | } else if (name.empty() || name == "." || separator) { | } else if (name.empty() || separator) { | test_vp_archive | VpArchiveCheck.*
pcx-v3-grey | loaders/textures/pcx_reader.cpp | (p[kPaletteInfoAt] == 2 || h.version < 5) | (p[kPaletteInfoAt] == 2) | test_texture_pcx | PcxHandBuilt.*
pcx-v4-grey | loaders/textures/pcx_reader.cpp | (p[kPaletteInfoAt] == 2 || h.version < 5) | (p[kPaletteInfoAt] == 2 || h.version < 4) | test_texture_pcx | PcxHandBuilt.*
pod-clip-start-ignored | loaders/pod/pod_reader.cpp | m_firstFrame = frame; | (void)frame; | test_pod_writer | PodWriter.DemoSceneRoundTrip
pod-xfov-as-yfov | convert/pod/pod_shape.cpp | c.yfov = 2.0f * std::atan(std::tan(c.xfov * 0.5f) / aspect); | c.yfov = c.xfov; | test_convert_pod | PodShapeScene.HorizontalFieldOfView*
gltf-prescan-largest | loaders/gltf/gltf_meshes.cpp | a.largestIndex = largestIndex(a.type, a.bytes.data, a.count, a.stride, false); | a.largestIndex = 0; | test_gltf_fixtures | GltfFixtures.ManyIndices*
diff-view-not-kept | app/viewer/viewer_loop.cpp | if (key.value == c.diffKey && now - c.diffDrawn < kDifferenceRefresh && now >= c.diffDrawn) return; | if (false) return; | test_viewer_compare | ViewerCompare.DifferenceOfAModel*
diff-view-key-no-view | app/viewer/viewer_loop.cpp | h.bytes(&view, sizeof view); | (void)view; | test_viewer_compare | ViewerCompare.DifferenceOfAModel*
ktx-layer-first-only | loaders/textures/decode.cpp | one.surfaces = {image.layerSurfaces[layer - 1]}; | one.surfaces = {image.layerSurfaces[0]}; | test_texture_ktx | Ktx*.*array*
ktx2-layer-offset | loaders/textures/ktx_reader.cpp | layerSpans.push_back({levelBytes, layer * h.faces * face}); | layerSpans.push_back({levelBytes, h.faces * face}); | test_texture_ktx | Ktx2.*array*
gltf-cubic-out | loaders/gltf/gltf_animation.cpp | track.outValues[k * comps + c] = k + 1 < n ? v + b * (times[k + 1] - times[k]) / 3.0f : v; | track.outValues[k * comps + c] = k + 1 < n ? v + b * (times[k + 1] - times[k]) / 2.0f : v; | test_gltf_fixtures | GltfFixtures.*
gltf-sparse-dropped | loaders/gltf/gltf_accessors.cpp | a.bytes = makeOwnedBytes(std::move(copy)); | (void)copy; | test_gltf_fixtures | GltfFixtures.*
gltf-accessor-need | loaders/gltf/gltf_accessors.cpp | const uint64_t need = (count - 1) * a.stride + a.elementSize; | const uint64_t need = (count - 1) * a.stride; | test_gltf_fixtures | GltfFixtures.*
gltf-loop-open | loaders/gltf/gltf_meshes.cpp | lines.push_back(out.made[(k + 1) % n]); | lines.push_back(out.made[std::min(k + 1, n - 1)]); | test_gltf_fixtures | GltfFixtures.*
gltf-stride-split | loaders/gltf/gltf_meshes.cpp | if (a->bufferView >= 0 && a->viewStride > 0) { | if (false) { | test_gltf_fixtures | GltfFixtures.*
gltf-front-ignored | loaders/gltf/gltf_nodes.cpp | m_scene.front = f / length; | (void)f; | test_gltf_samples | GltfSamples.EverySampleWrittenReadsBackAlike
unlit-material-lit | renderer/draw_builder.cpp | if (mode == ViewMode::Shaded && material.model == ShadingModel::Unlit) mode = ViewMode::Unlit; | (void)0; | test_gltf_cli | GltfCli.UnlitMaterialIsItsBaseColourInTheShadedView
uv1-never-drawn | renderer/materials.cpp | f.uv1Maps = gpu.uv1Stream >= 0 ? uv1Maps(m, f) : 0; | f.uv1Maps = 0; | test_gltf_cli | GltfCli.MapsSampleTheTextureCoordinateSetTheyName
uv1-transform-on-set0 | shaders/mesh.frag | vec3 h = vec3(uv, 1.0); | vec3 h = vec3(v_uv, 1.0); | test_gltf_cli | GltfCli.MapsSampleTheTextureCoordinateSetTheyName
ior-not-drawn | renderer/materials.cpp | p.metalRough ? dielectricF0(m->ior) * m->specularColorFactor | p.metalRough ? 0.04f * m->specularColorFactor | test_gltf_cli | GltfCli.IndexOfRefractionSetsTheDielectricF0
cube-face-ignored | loaders/textures/decode.cpp | decoded = decodeSurface(image, 0, face, rgba, error); | decoded = decodeSurface(image, 0, 0, rgba, error); | test_ktx_viewer | KtxViewer.*
validate-split-skipped | loaders/validate.cpp | if (split < n) second = std::thread(scan, split, n); | if (split < n) second = std::thread(scan, split + 1, n); | test_loaders | Validate.*
cube-square | prepare/prepare.cpp | if (image.isCube()) width = height = std::max(width, height); | (void)image; | test_prepare | StrictPrepare.*
check-warning-count | app/cli/check_command.cpp | warnings += r.warnings.size(); | warnings += r.warnings.empty() ? 0 : 1; | test_check_batch | CheckBatch.*
thumbnail-supersample | app/cli/thumbnail_command.cpp | constexpr int kSupersample = 2; | constexpr int kSupersample = 1; | test_thumbnail | Thumbnail.EdgesAreSupersampled
gltf-skin-last-batch | convert/gltf/gltf_skin.cpp | if (v < batchOf.size() && batchOf[v] < 0) batchOf[v] | if (v < batchOf.size()) batchOf[v] | test_gltf_units | GltfSkin.*
ogex-cw-ignored | loaders/opengex/opengex_geometry.cpp | if (sub.frontFaceCW) {\n        // Clockwise | if (false && sub.frontFaceCW) {\n        // Clockwise | test_cli | Cli.Clockwise*
zup-gltf-unturned | app/cli/convert_gltf.cpp | const bool turned = turnSceneToYUp(scene); | const bool turned = false; | test_convert_gltf | ConvertGltf.ZUpSceneComesOutYUp
gltf-winding-reversed | convert/gltf/gltf_meshes.cpp | if (ok) indices.insert(indices.end(), list.begin() + long(k), list.begin() + long(k + per)); | if (ok) indices.insert(indices.end(), std::make_reverse_iterator(list.begin() + long(k + per)), std::make_reverse_iterator(list.begin() + long(k))); | test_gltf_triangles | GltfTriangles.*
gltf-uv-v-flipped | convert/gltf/gltf_meshes.cpp | uv[i * 2 + 1] = v[1]; | uv[i * 2 + 1] = 1.0f - v[1]; | test_gltf_triangles | GltfTriangles.*
zup-element-index | scene/up_axis.cpp | if (prepended[t.node]) ++t.element; | (void)prepended; | test_scene | UpAxis.*
drop-hidden-meshes | convert/pod/pod_shape.cpp | if (!drawn[i] && i < drawnBefore.size() && drawnBefore[i]) { | if (false) { | test_convert_pod | PodShapeScene.*
refusals-first-only | convert/pod/pod_shape.cpp | shapeMaterials(scene, options, report); | shapeMaterials(scene, options, report);\n    if (!report.refusals.empty()) { error = report.refusals.front(); return false; } | test_convert_pod | PodShapeScene.*
clamp-always-refused | convert/pod/pod_shape.cpp | if (uvsWithinUnit(scene, i, r)) { | if (false) { | test_convert_pod | PodShapeScene.*
shard-split | app/cli/convert_command.cpp | if (stableHash(f.relative) % shardN == shardK - 1) | if (stableHash(f.relative) % shardN == 0) | test_convert_batch | ConvertBatch.*
pnm-size-check | loaders/textures/pnm_reader.cpp | if (n - h.samplesAt < need) { | if (n < h.samplesAt) { | test_texture_files | Stb.*:Pnm.*
pnm-byte-order | loaders/textures/pnm_reader.cpp | (uint64_t(s[0]) << 8) + s[1] | (uint64_t(s[1]) << 8) + s[0] | test_texture_files | Pnm.*
pnm-unscaled | loaders/textures/pnm_reader.cpp | return uint8_t((std::min(v, maxValue) * 255 + maxValue / 2) / maxValue); | return uint8_t(maxValue > 255 ? v >> 8 : v); | test_texture_files | Pnm.*
batch-colours-eight | renderer/view_settings.h | inline constexpr size_t kBatchColorCount = 64; | inline constexpr size_t kBatchColorCount = 8; | test_renderer | BatchColors.*
state-pointer-buffer | renderer/gl_state.cpp | if (m_arrayBuffer != kUnknown && a.pointers[location] == p) return; | if (m_arrayBuffer != kUnknown && a.pointers[location].stride == stride && a.pointers[location].offset == offset && a.pointers[location].size == size && a.pointers[location].type == type && a.pointers[location].normalized == normalized) return; | test_render | GlStateCache.*:NoVertexArrays.*
state-pointer-offset | renderer/gl_state.cpp | if (m_arrayBuffer != kUnknown && a.pointers[location] == p) return; | if (m_arrayBuffer != kUnknown && a.pointers[location].buffer == m_arrayBuffer && a.pointers[location].stride == stride && a.pointers[location].size == size && a.pointers[location].type == type && a.pointers[location].normalized == normalized) return; | test_render | GlStateCache.*:NoVertexArrays.*
light-exposure-off | renderer/light_rig.cpp | if (given > kFileTarget) { | if (false) { | test_exposure | Exposure.StrongFileLightsStayInRangeBesideTheStudioRig
specular-unclamped | shaders/mesh.frag | vec3 specular = u_up.w < 0.5 ? specularColor : min(specularColor, vec3(1.0)); | vec3 specular = specularColor; | test_exposure | Exposure.EverySampleIsLitAtTheDefaultView
file-camera-ignored | app/viewer/viewer_actions.cpp | if (fileCameraDirection(scene, toEye)) { | if (false) { | test_framing | Framing.FirstViewLooksFromTheFilesCamera
ground-t-pose | app/viewer/viewer_actions.cpp | (e[h0] >= 1.25f * r[h0] | (e[h0] >= 2.5f * r[h0] | test_framing | Framing.AGroundUnderTheSubjectIsLeftOut
json-not-utf8 | app/cli/check_command.cpp | checkResultJson(r).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) | checkResultJson(r).dump() | test_check_batch | CheckBatch.NamesThatAreNotUtf8KeepTheJsonValid
draw-palette-bytes | renderer/draw_executor.cpp | m_state.countPaletteBytes(m_state.changes().uniformBytes - before); | (void)before; | test_render | FrameStateChanges.*
draw-submesh-setup-once | renderer/draw_executor.cpp | if (item.submesh != submesh) { | if (submesh == ~0u) { | test_render | MaterialRender.*
draw-batch-colour | renderer/draw_builder.cpp | view.mode == ViewMode::Batches ? batchColor(b) : batchColor(b + 3); | view.mode == ViewMode::Batches ? batchColor(0) : batchColor(b + 3); | test_render | *
state-count-uniforms | renderer/gl_state.cpp | ++m_changes.uniforms; | (void)0; | test_render | GlStateCache.*:FrameStateChanges.*
cost-fifo-size | cost/cost_report.cpp | meshopt_analyzeVertexCache(triangles.data(), triangles.size(), mesh.vertexCount, device.vertexCache, 0, 0); | meshopt_analyzeVertexCache(triangles.data(), triangles.size(), mesh.vertexCount, 16, 0, 0); | test_cost | CostMesh.*
cost-gpu-bytes-prepared | cost/cost_report.cpp | const Image& uploaded = asStored ? image : prepared.image; | const Image& uploaded = prepared.image; | test_cost | CostTexture.*
texture-plan-no-chain | target/texture_plan.cpp | plan.gpuBytes += plan.gpuBytes / 3; | (void)0; | test_cost | CostTexture.*
budget-draws-measure | cost/budget.cpp | if (name == "draws") return report.frame.draws; | if (name == "draws") return report.frame.triangles; | test_cost_cli | CheckBudget.*
budget-exit-code | app/cli/check_command.cpp | return failed == 0 && overBudget == 0 ? kExitOk : kExitBadInput; | return failed == 0 ? kExitOk : kExitBadInput; | test_cost_cli | CheckBudget.*
overdraw-alpha-tested-opaque | renderer/draw_builder.cpp | const bool layered = material.blend.enabled || material.opacity < 1.0f || material.alphaCutoff > 0.0f; | const bool layered = material.blend.enabled || material.opacity < 1.0f; | test_render | OverdrawViews.*
texel-density-sign | shaders/mesh.frag | mix(vec3(1.0), vec3(1.0, 0.1, 0.1), t) | mix(vec3(1.0), vec3(0.1, 0.2, 1.0), t) | test_render | TextureViews.*
picked-weights-short | scene/skin_analysis.cpp | result.weights.assign(values, values + std::clamp(weightCount, 0, 4)); | result.weights.assign(values, values + std::clamp(weightCount - 1, 0, 4)); | test_skinning_debugger | SkinningDebugger.PickedVertex*
picked-index-not-batch-local | scene/skin_analysis.cpp | if (!mesh.boneIndicesBatchLocal)\n                joint = static_cast<int32_t>(local); | if (true)\n                joint = static_cast<int32_t>(local); | test_skinning_debugger | SkinningDebugger.PickedVertexInfluencesAreThePodFileWeights
mask-not-rescaled | scene/skin_analysis.cpp | const float scale = kept != 0.0f ? total / kept : 0.0f; | const float scale = kept != 0.0f ? 1.0f : 0.0f; | test_skinning_debugger | SkinningDebugger.HiddenAndSolo*
mask-solo-ignored | scene/skin_analysis.cpp | if (mask.solo >= 0) return jointNode != mask.solo; | if (false) return jointNode != mask.solo; | test_skinning_debugger | SkinningDebugger.HiddenAndSolo*
ctrl-click-selects | app/viewer/viewer_loop.cpp | if (!controlHeld(v))\n                selectNode(s, pickAt(s, fx, fy)); | if (true)\n                selectNode(s, pickAt(s, fx, fy)); | test_skinning_debugger | SkinningDebugger.CtrlClick*
joint-names-never-all | app/viewer/panels/viewport_overlay.cpp | if (s.showJointNames && s.allJointNames) | if (false) | test_skinning_debugger | SkinningDebugger.AllJointNames*
joint-pick-no-weights | app/viewer/viewer_actions.cpp | if (s.weightsOnJointPick) s.view.mode = ViewMode::Weights; | (void)0; | test_skinning_debugger | SkinningDebugger.PickedJoint*
range-ignored-by-play | app/viewer/transport.cpp | playBounds(scene, t, lo, hi);\n    const float length = hi - lo; | lo = 0.0f;\n    hi = transportDuration(scene, t.clip);\n    const float length = hi - lo; | test_transport | Transport.PlayRange*
range-kept-on-new-clip | app/viewer/transport.cpp | t.direction = 1;\n    clearPlayRange(t); | t.direction = 1; | test_transport | Transport.PlayRange*
range-pingpong-from-zero | app/viewer/transport.cpp | t.time = std::clamp(lo + (forwards ? p : period - p), lo, hi); | t.time = std::clamp(forwards ? p : period - p, lo, hi); | test_transport | Transport.PlayRange*
range-out-before-in | app/viewer/transport.cpp | if (lo > hi) lo = 0.0f; | if (lo > hi) hi = duration; | test_transport | Transport.PlayRange*
key-node-ignored | app/viewer/transport.cpp | const std::vector<float> keys = clipKeyTimes(scene, t.clip, node); | const std::vector<float> keys = clipKeyTimes(scene, t.clip); | test_transport | Transport.StepKeys*
whole-frame-floored | app/viewer/transport.cpp | const float shown = std::abs(frame - whole) <= kFrameEpsilon ? whole : std::floor(frame); | const float shown = std::floor(frame); | test_transport | Transport.WholeFrame*
script-range-frames-as-seconds | app/viewer/viewer_script.cpp | const float unit = c.a.size() > 2 ? 1.0f / transportFrameRate(c.scene(), t.clip) : 1.0f; | const float unit = 1.0f; | test_viewer_script | ViewerScript.RangeAndNodeKeys*
shift-keys-of-every-node | app/viewer/viewer_loop.cpp | const int keyNode = shift ? s.selection.node : -1; | const int keyNode = -1; | test_animation_acceptance | AnimationAcceptance.KeyStepsOfANodeWithFewerKeys*
range-keys-ignored | app/viewer/viewer_loop.cpp | const bool rangeIn = pressed(Key::I), rangeOut = keyO && !ctrl; | const bool rangeIn = false, rangeOut = false; | test_animation_acceptance | AnimationAcceptance.PlayRange*
blend-weight-one-short | app/viewer/transport.cpp | blendPoses(scene, pose, scratch, t.blendWeight, pose); | blendPoses(scene, pose, scratch, t.blendWeight * 0.9999f, pose); | test_animation_acceptance | AnimationAcceptance.BlendAtZeroAndOne*
range-handles-seek | app/viewer/panels/main_panel.cpp | if (ImGui::IsItemActivated()) s.rangeDrag = rangeHandleAt(t, mouseX, xOf(t.rangeIn), xOf(t.rangeOut)); | if (ImGui::IsItemActivated()) s.rangeDrag = 0; | test_animation_acceptance | AnimationAcceptance.DraggingTheEnds*
range-lost-on-reload | app/viewer/viewer_actions.cpp | if (oldTransport.range && s.transport.clip >= 0 | if (false && oldTransport.range && s.transport.clip >= 0 | test_animation_acceptance | AnimationAcceptance.PlayRange*
blend-kept-on-new-file | app/viewer/viewer_actions.cpp | s.transport.blendClip = -1;\n        s.transport.blendWeight = 0.0f; | (void)0; | test_animation_acceptance | AnimationAcceptance.PlayRange*
cost-skin-joints | cost/cost_report.cpp | sizes.push_back(weighted > 0 ? weighted : uint32_t(joints)); | sizes.push_back(uint32_t(joints)); | test_cost | CostMesh.*
ktx1-sample-swap | loaders/textures/ktx_reader.cpp | if (swapped && f.typeSize > 1) | if (false && swapped && f.typeSize > 1) | test_texture_ktx | Ktx1.*
ktx1-row-padding | loaders/textures/ktx_reader.cpp | const uint64_t stride = rowPadding ? (rowBytes + 3) / 4 * 4 : rowBytes; | const uint64_t stride = rowPadding ? rowBytes : rowBytes; | test_texture_ktx | Ktx1.*
ktx1-cube-image-size | loaders/textures/ktx_reader.cpp | const uint64_t expected = nonArrayCube ? face : layers * h.faces * face; | const uint64_t expected = layers * h.faces * face; | test_texture_ktx | Ktx1.*
ktx2-face-offset | loaders/textures/ktx_reader.cpp | spans.push_back({levelBytes, fc * face}); | spans.push_back({levelBytes, 0}); | test_texture_ktx | Ktx2.*
ktx-orientation-ignored | loaders/textures/ktx_reader.cpp | o.rowsBottomUp = true; | (void)0; | test_texture_ktx | Ktx1.*:Ktx2.*
meshopt-filter-skipped | loaders/gltf/decode_meshopt.cpp | applyFilter(view, out);\n    return true; | return true; | test_gltf_codecs | MeshoptDecode.*
meshopt-bound-loose | loaders/gltf/decode_meshopt.cpp | if (bytes > largestDecodedSize(view, size)) { | if (bytes > largestDecodedSize(view, size) * 1024) { | test_gltf_codecs | MeshoptDecode.*
draco-face-order | loaders/gltf/decode_draco.cpp | out.indices[size_t(f) * 3 + k] = face[k].value(); | out.indices[size_t(f) * 3 + (2 - k)] = face[k].value(); | test_gltf_codecs | DracoDecode.*
plain-materials-two-sided | convert/pod/pod_shape.cpp | m.twoSided = false; | (void)0; | test_convert_pod | PodShapeScene.*
compare-always-alike | app/cli/compare_command.cpp | return alike ? kExitOk : kExitBadInput; | return kExitOk; | test_compare | CompareCli.*
compare-never-widened | app/cli/compare_command.cpp | if (sameBounds(boundsA, boundsB)) return std::nullopt; | return std::nullopt; | test_compare | CompareCli.CameraWidensToFrameBoth
compare-zup-camera-kept | app/viewer/compare_view.cpp | orbit.zUp = b.up == UpAxis::Z; | orbit.zUp = ofA.zUp; | test_compare | CompareCli.ZUpSourceIsAlikeItsTurnedConversion
vcompare-clip-by-index | app/viewer/compare_view.cpp | if (clipsB[i].name == clipsA[size_t(clipA)].name) return int(i); | if (false) return int(i); | test_viewer_compare | ViewerCompare.SelectionAndTimeFollowAByName
vcompare-selection-by-index | app/viewer/compare_view.cpp | ? findNode(b, a.nodes[size_t(selected)].name) | ? selected | test_viewer_compare | ViewerCompare.SelectionAndTimeFollowAByName
vcompare-time-not-followed | app/viewer/compare_view.cpp | seekTransport(b, c.transport, t.time); | seekTransport(b, c.transport, 0.0f); | test_viewer_compare | ViewerCompare.SelectionAndTimeFollowAByName
vcompare-split-unscissored | app/viewer/viewer_loop.cpp | drawColumns(*c.renderer, *c.scene, c.pose, c.view, b, split, b.x + b.width, height); | drawColumns(*c.renderer, *c.scene, c.pose, c.view, b, b.x, b.x + b.width, height); | test_viewer_compare | ViewerCompare.Split*
vcompare-divider-stuck | app/viewer/viewer_loop.cpp | if (c.draggingDivider) c.divider = | if (false) c.divider = | test_viewer_compare | ViewerCompare.Split*
vcompare-diff-of-a | app/viewer/viewer_loop.cpp | target.read(b.rgba); | b.rgba = a.rgba; | test_viewer_compare | ViewerCompare.Difference*
vcompare-side-uneven | app/viewer/compare_view.cpp | a.width = b.width = view.width / 2; | a.width = view.width / 2; | test_viewer_compare | ViewerCompare.SideBySide*
vcompare-es2-not-restored | app/viewer/viewer_loop.cpp | if (!restoreCompare(s, true, error)) { | if (false) { | test_viewer_compare | ViewerCompare.BSurvives*
vcompare-framing-a-only | app/viewer/viewer_actions.cpp | if (!s.compare.active() || !s.compare.bounds.valid()) return; | return; | test_viewer_compare | ViewerCompare.Framing*
vcompare-pick-outside | app/viewer/viewer_actions.cpp | x >= float(v.x + v.width) || | x >= float(v.x + 2 * v.width) || | test_viewer_compare | ViewerCompare.SideBySide*
vcompare-not-watched | app/viewer/viewer_loop.cpp | if (stamp != 0 && stamp != c.fileStamp) c.requestOpen = c.path; | if (false) c.requestOpen = c.path; | test_viewer_compare | ViewerCompare.Difference*
frames-step-ignored | app/cli/render_sequence.cpp | f <= sequence.frames->last; f += sequence.frames->step) | f <= sequence.frames->last; f += 1) | test_render_sequence | RenderSequence.*
pattern-two-conversions | app/cli/render_sequence.cpp | if (conversions != 1) | if (conversions == 0) | test_render_sequence | RenderSequence.BadPatternsAndRangesAreUsageErrors
turntable-half-steps | app/cli/render_sequence.cpp | shot.yawOffset = float(2.0 * M_PI * double(k) / double(sequence.turntable)); | shot.yawOffset = float(M_PI * double(k) / double(sequence.turntable)); | test_render_sequence | RenderSequence.TurntableStepsAreAnEqualShareOfATurn
turntable-about-target | app/cli/render_command.cpp | turned.target = orbit.sceneCenter + glm::dot(v, f0) * f1 + glm::dot(v, r0) * r1 + glm::dot(v, up) * up; | (void)v; | test_render_sequence | RenderSequence.TurntableStepsAreAnEqualShareOfATurn
gltf-mag-filter-linear | renderer/textures.cpp | glMag = mag == TextureFilter::Nearest ? GL_NEAREST : GL_LINEAR; | glMag = GL_LINEAR; | test_gltf_cli | GltfCli.SamplerFiltersAreDrawn
gltf-mipmap-filter-without-levels | renderer/textures.cpp | glMin = texture.mipmapped ? kMipmapped[m] : kBaseOnly[m]; | glMin = kMipmapped[m]; | test_gltf_cli | GltfCli.MipmapFilterOnATextureWithoutLevelsIsNotBlack
gltf-min-filter-code | loaders/gltf/gltf_materials.cpp | uint32_t(code - 9984)); | uint32_t(code - 9985)); | test_gltf_fixtures | GltfFixtures.MaterialMapsToMetalRough
gltf-normal-scale-ignored | shaders/mesh.frag | m.xy *= u_mapFactors.x; | m.xy *= 1.0; | test_gltf_cli | GltfCli.NormalScaleOcclusionStrengthAndSpecularAreDrawn
gltf-occlusion-strength-ignored | shaders/mesh.frag | occlusion += u_mapFactors.y * ( | occlusion += ( | test_gltf_cli | GltfCli.NormalScaleOcclusionStrengthAndSpecularAreDrawn
gltf-specular-factor-ignored | renderer/materials.cpp | m_state.uniform4f(p.mapFactors, m->normalScale, m->occlusionStrength, m->specularFactor, 0.0f); | m_state.uniform4f(p.mapFactors, m->normalScale, m->occlusionStrength, 1.0f, 0.0f); | test_gltf_cli | GltfCli.NormalScaleOcclusionStrengthAndSpecularAreDrawn
gltf-specular-colour-ignored | renderer/materials.cpp | p.metalRough ? 0.04f * m->specularColorFactor : m->specular; | p.metalRough ? glm::vec3(0.04f) : m->specular; | test_gltf_cli | GltfCli.NormalScaleOcclusionStrengthAndSpecularAreDrawn
gltf-specular-strength-map-ignored | shaders/mesh.frag | specular *= SAMPLE_MAP(u_specularStrengthMap, MAP_SPECULAR_STRENGTH).a; | specular *= 1.0; | test_gltf_cli | GltfCli.SpecularMapsAreDrawnOnEs3
gltf-specular-map-transforms-cut | renderer/materials.cpp | const int maps = transformedMaps(f); | const int maps = 6; | test_gltf_cli | GltfCli.SpecularMapsAreDrawnOnEs3
gltf-influences-not-renormalised | loaders/gltf/gltf_meshes.cpp | w[c] = all[c].first / sum; | w[c] = all[c].first; | test_gltf_fixtures | GltfFixtures.SecondInfluenceSetKeepsTheFourLargest
gltf-influences-joint-twice | loaders/gltf/gltf_meshes.cpp | if (same != all.end()) same->first += w; | if (false) same->first += w; | test_gltf_fixtures | GltfFixtures.SecondInfluenceSetKeepsTheFourLargest
gltf-writer-mag-filter | convert/gltf/gltf_materials.cpp | {"magFilter", ref.magFilter == TextureFilter::Nearest ? 9728 : 9729}, | {"magFilter", 9729}, | test_gltf_units | GltfWriter.MaterialTermsAndSamplerFiltersRoundTrip
EOF

if [ "$list" = 1 ]; then
  printf '%s\n' "$TABLE" | sed 's/ | /\t/g' | cut -f1,2,5,6
  exit 0
fi

# The scratch clone: HEAD plus the working tree's changes, refreshed on every run.
if [ ! -d "$scratch/.git" ]; then
  git clone -q --no-hardlinks "$root" "$scratch"
fi
git -C "$scratch" fetch -q "$root" HEAD
git -C "$scratch" checkout -q --force FETCH_HEAD
git -C "$scratch" clean -fdq  # files a previous run added (build folders are ignored, so kept)
git -C "$root" diff --binary HEAD | (cd "$scratch" && git apply --allow-empty 2>/dev/null || true)
git -C "$root" ls-files --others --exclude-standard -z | (cd "$root" && xargs -0 -r cp --parents -t "$scratch")
# ccache keys on paths relative to the scratch clone, so its objects are this checkout's too.
export CCACHE_BASEDIR="$scratch"
# The shared models beside this checkout, not beside the scratch clone: a test that skipped for
# want of them would read as a survivor (a skip is reported as such below).
cmake -S "$scratch" -B "$scratch/build-mutate" -DCMAKE_BUILD_TYPE=Release -DESVIEW_BUILD_BENCH=OFF \
  -DESVIEW_SHARED_DIR_OVERRIDE="$root/../shared" >/dev/null

killed=0
survived=0
broken=0
while IFS=$'\t' read -r id file from to target filter; do
  [ -z "$id" ] && continue
  [ -n "$only" ] && [ "$only" != "$id" ] && continue
  if ! python3 - "$scratch/$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1], sys.argv[2].replace("\\n", "\n"), sys.argv[3].replace("\\n", "\n")
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, new, 1))
PY
  then
    echo "mutate: $id: not applied ($file no longer holds the text): update the table"
    broken=$((broken + 1))
    continue
  fi
  status=survived
  if ! cmake --build "$scratch/build-mutate" -j "$(nproc)" --target "$target" esview >"$scratch/build-mutate/$id.log" 2>&1; then
    status="killed (does not build)"
  elif ! (cd "$scratch/build-mutate" && "tests/$target" --gtest_filter="$filter" >>"$id.log" 2>&1); then
    status=killed
  elif grep -q '^\[  SKIPPED \]' "$scratch/build-mutate/$id.log"; then
    status="skipped (a test it needs skipped: cannot tell)"
  fi
  cp "$root/$file" "$scratch/$file"  # this checkout holds the file as it should be
  echo "mutate: $id ($file, $target $filter): $status"
  case "$status" in
    survived) survived=$((survived + 1)) ;;
    skipped*) broken=$((broken + 1)) ;;
    *) killed=$((killed + 1)) ;;
  esac
done < <(printf '%s\n' "$TABLE" | sed 's/ | /\t/g')
# Rebuilt without the last mutation, so the next run starts from the real code.
cmake --build "$scratch/build-mutate" -j "$(nproc)" --target esview >/dev/null 2>&1 || true
echo "mutate: $killed killed, $survived survived, $broken not applied or skipped"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
