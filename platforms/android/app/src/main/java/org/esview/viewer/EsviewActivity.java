package org.esview.viewer;

import android.Manifest;
import android.app.ActivityManager;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.database.Cursor;
import android.net.Uri;
import android.os.Build;
import android.os.Bundle;
import android.os.Environment;
import android.provider.DocumentsContract;
import android.provider.MediaStore;
import android.provider.OpenableColumns;
import android.util.Log;

import java.io.File;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.libsdl.app.SDLActivity;

/**
 * esview on Android: SDL's activity running the viewer of libmain.so (android_main.cpp), which is
 * `esview --host sdl` as on Linux. This class only turns what Android hands the app into the viewer's
 * command line: the model an intent opens (ACTION_VIEW, ACTION_SEND, ACTION_SEND_MULTIPLE), and
 * --gles2 where the device has no OpenGL ES 3. A model that arrives while the viewer runs is dropped
 * on it, as a file dropped on the desktop window.
 */
public class EsviewActivity extends SDLActivity {
    private static final String TAG = "esview";
    private static final int STORAGE_REQUEST = 0x4553;

    private Intent mOpenIntent;  // the intent that started the app, resolved on SDL's thread

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        mOpenIntent = getIntent();
        // SDL drops an intent's URI path on the viewer by itself; the path is the command line's here.
        setIntent(new Intent(Intent.ACTION_MAIN));
        super.onCreate(savedInstanceState);
        // Shared storage by path (the in-app file browser, textures beside a model): until Android 12
        // one runtime permission. Android 13 and later: README.md.
        if (Build.VERSION.SDK_INT < 33
                && checkSelfPermission(Manifest.permission.READ_EXTERNAL_STORAGE) != PackageManager.PERMISSION_GRANTED) {
            requestPermissions(new String[] {Manifest.permission.READ_EXTERNAL_STORAGE}, STORAGE_REQUEST);
        }
    }

    @Override
    protected String[] getLibraries() {
        return new String[] {"SDL2", "main"};
    }

    // Called on SDL's thread before SDL_main, so copying a model does not hold up the UI thread.
    @Override
    protected String[] getArguments() {
        List<String> args = new ArrayList<>();
        ActivityManager am = (ActivityManager) getSystemService(ACTIVITY_SERVICE);
        if (am.getDeviceConfigurationInfo().reqGlEsVersion < 0x30000) args.add("--gles2");
        String model = modelPath(mOpenIntent);
        if (model != null) args.add(model);
        return args.toArray(new String[0]);
    }

    @Override
    protected void onNewIntent(Intent intent) {
        super.onNewIntent(intent);
        new Thread(() -> {
            String model = modelPath(intent);
            if (model != null) SDLActivity.onNativeDropFile(model);
        }, "esview-open").start();
    }

    /**
     * The model an intent opens as a path the viewer can read, or null. A single file readable where
     * it lies is opened there, so the textures beside it are found. Otherwise the files are copied
     * into one new folder of the app's cache: a model sent together with its textures finds them.
     */
    private String modelPath(Intent intent) {
        if (intent == null) return null;
        List<Uri> uris = new ArrayList<>();
        String action = intent.getAction();
        if (Intent.ACTION_VIEW.equals(action) && intent.getData() != null) {
            uris.add(intent.getData());
        } else if (Intent.ACTION_SEND.equals(action)) {
            Uri uri = intent.getParcelableExtra(Intent.EXTRA_STREAM);
            if (uri != null) uris.add(uri);
        } else if (Intent.ACTION_SEND_MULTIPLE.equals(action)) {
            ArrayList<Uri> list = intent.getParcelableArrayListExtra(Intent.EXTRA_STREAM);
            if (list != null) uris.addAll(list);
        }
        if (uris.isEmpty()) return null;
        if (uris.size() == 1) {
            String path = readablePath(uris.get(0));
            if (path != null) return path;
        }
        File dir = new File(getCacheDir(), "opened/" + System.currentTimeMillis());
        if (!dir.mkdirs()) return null;
        String model = null;
        for (Uri uri : uris) {
            File copy = copy(uri, dir);
            if (copy != null && (model == null || isModel(copy.getName()) && !isModel(model))) model = copy.getPath();
        }
        return model;
    }

    private static boolean isModel(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String ext : ModelFormats.EXTENSIONS)
            if (lower.endsWith(ext)) return true;
        return false;
    }

    /** The file behind a file:// or content:// URI when this app may read it by path, else null. */
    private String readablePath(Uri uri) {
        String path = null;
        if ("file".equals(uri.getScheme())) {
            path = uri.getPath();
        } else if ("content".equals(uri.getScheme())) {
            try {
                if ("com.android.externalstorage.documents".equals(uri.getAuthority())
                        && DocumentsContract.isDocumentUri(this, uri)) {
                    // "primary:Download/ship.pod", or "1234-ABCD:models/ship.pod" on a removable volume
                    String[] id = DocumentsContract.getDocumentId(uri).split(":", 2);
                    if (id.length == 2) {
                        String root = "primary".equalsIgnoreCase(id[0])
                                ? Environment.getExternalStorageDirectory().getPath() : "/storage/" + id[0];
                        path = root + "/" + id[1];
                    }
                } else {
                    path = queryString(uri, MediaStore.MediaColumns.DATA);  // what many providers still give
                }
            } catch (RuntimeException e) {
                Log.i(TAG, "no path for " + uri + ": " + e);
            }
        }
        return path != null && new File(path).canRead() ? path : null;
    }

    private String queryString(Uri uri, String column) {
        try (Cursor c = getContentResolver().query(uri, new String[] {column}, null, null, null)) {
            if (c != null && c.moveToFirst() && !c.isNull(0)) return c.getString(0);
        }
        return null;
    }

    /** Copies what a URI holds into `dir` under its display name; null when it cannot be read. */
    private File copy(Uri uri, File dir) {
        String name = null;
        try {
            name = queryString(uri, OpenableColumns.DISPLAY_NAME);
        } catch (RuntimeException e) {
            // file:// URIs and some providers have no such column
        }
        if (name == null) name = uri.getLastPathSegment();
        if (name == null || name.isEmpty()) name = "model";
        File out = new File(dir, name.replace('/', '_'));
        try (InputStream in = getContentResolver().openInputStream(uri);
                OutputStream os = new FileOutputStream(out)) {
            if (in == null) return null;
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0;) os.write(buffer, 0, n);
            return out;
        } catch (Exception e) {
            Log.w(TAG, "cannot copy " + uri + ": " + e);
            return null;
        }
    }
}
