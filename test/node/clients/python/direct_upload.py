"""The official Python client's direct upload, as its README shows it, against whatever `host` is given.

Run by test/node/python-client.test.mjs:
    python3 direct_upload.py <host> <api secret> <site id> <file> <title>
Prints one JSON line: the upload context `create_media_and_get_upload_context` returned. `upload` raises (and the
script exits non-zero with the traceback) unless the upload link answered 2xx with the file's MD5 as its ETag.
"""
import json
import os
import sys

# The vendored, unmodified client (jwplatform 2.2.2 and its dependency neterr 1.1.1; see README.md here).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jwplatform.client import JWPlatformClient  # noqa: E402


def main():
    host, secret, site_id, path, title = sys.argv[1:6]
    client = JWPlatformClient(secret, host=host)
    with open(path, "rb") as file:
        context = client.Media.create_media_and_get_upload_context(
            file, body={"upload": {}, "metadata": {"title": title}}, site_id=site_id)
        client.Media.upload(file, context, site_id=site_id)
    print(json.dumps({
        "upload_method": context.upload_method,
        "upload_id": context.upload_id,
        "direct_link": context.direct_link,
    }))


if __name__ == "__main__":
    main()
