#!/bin/sh
# Regenerates the PCX fixtures of tests/textures/pcx_test.cpp with ImageMagick 6 (Debian's
# imagemagick-6.q16), an independent PCX writer. Each source PNG is made first, then every PCX
# variant ImageMagick writes is made from that PNG, so the test can compare the PCX decoded by
# esview with the PNG decoded by stb_image pixel for pixel.
#
# ImageMagick 6.9.11 writes: version 5, RLE by default (each scanline encoded on its own, runs of
# at most 63), raw with -compress None; 8 bits x 3 planes for RGB images, x 4 planes with alpha;
# 8 bits x 1 plane with the 256-colour palette at the end for palette images (-type Palette);
# 1 bit x 1 plane for black-and-white palette images in the sRGB colour space. BytesPerLine is
# ceil(width * bits / 8), so only the 1-bit files pad (37 pixels in 5 bytes). It writes no 4-bit,
# 2-bit or planar EGA files; the test builds those by hand.
#
# Usage: tests/textures/pcx/make_fixtures.sh  (from anywhere; writes next to this script)
set -eu
IM=/usr/bin/convert-im6.q16  # the real ImageMagick, not a wrapper that may be earlier on PATH
# PNGs without date/time chunks, so a rerun writes the same bytes.
PNG="-define png:exclude-chunks=date,time"
cd "$(dirname "$0")"

# Sources: 37x23 (odd width), 8 bits per channel.
# rgb.png: a gradient with Gaussian noise (few runs: mostly literal bytes, many >= 0xC0).
$IM -size 37x23 gradient:red-blue -seed 7 -attenuate 0.5 +noise Gaussian -depth 8 $PNG PNG24:rgb.png
# rgba.png: the same colours with a vertical alpha ramp.
$IM rgb.png \( -size 37x23 gradient:white-black \) -alpha off -compose CopyOpacity -composite \
    -depth 8 $PNG PNG32:rgba.png
# pal.png: rgb.png quantised to at most 256 colours, stored as a palette PNG, so the PCX palette
# and the PNG hold the same colours.
$IM rgb.png +dither -colors 256 -depth 8 $PNG PNG8:pal.png
# bw.png: ordered-dithered black and white, saved in sRGB so ImageMagick writes a 1-bit PCX.
$IM rgb.png -colorspace Gray -ordered-dither o4x4 -set colorspace sRGB -type Palette -depth 8 $PNG PNG8:bw.png
# blocks.png: 150x20 flat rectangles (long runs, split at 63 bytes) with a few colours.
$IM -size 150x20 xc:'#204080' -fill '#C0C0C0' -draw 'rectangle 10,2 140,9' \
    -fill '#FF0000' -draw 'rectangle 0,12 70,19' -fill '#00FFC8' -draw 'rectangle 71,12 149,19' \
    -depth 8 $PNG PNG8:blocks.png

# PCX variants.
$IM rgb.png PCX:rgb_rle.pcx                           # 8 x 3, RLE
$IM rgb.png -compress None PCX:rgb_raw.pcx            # 8 x 3, raw
$IM rgba.png PCX:rgba_rle.pcx                         # 8 x 4, RLE
$IM rgba.png -compress None PCX:rgba_raw.pcx          # 8 x 4, raw
$IM pal.png -type Palette PCX:pal_rle.pcx             # 8 x 1 + end palette, RLE
$IM pal.png -type Palette -compress None PCX:pal_raw.pcx
$IM bw.png -set colorspace sRGB -type Palette PCX:bw_rle.pcx                  # 1 x 1, RLE
$IM bw.png -set colorspace sRGB -type Palette -compress None PCX:bw_raw.pcx   # 1 x 1, raw
$IM blocks.png -type Palette PCX:blocks_pal.pcx       # 8 x 1, long runs
$IM blocks.png -type TrueColor PCX:blocks_rgb.pcx     # 8 x 3, long runs
