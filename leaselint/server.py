"""`leaselint server`: a language server over stdio (pygls).

Diagnostics on open, on change (after a pause in typing) and on save, with the configuration that
applies to the file; code actions for each fix (safe ones preferred), "add `# noqa`", and "fix all
safe"; hover shows the rule's documentation. A buffer that matches the file on disk is checked with
the project pass (helpers of other modules), and is checked again when a watched file changes; an
edited buffer is checked on its own until it is saved.
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import unquote, urlparse

from leaselint import __version__

# Seconds without a change before an edited buffer is checked.
DEBOUNCE_S = 0.25
FIX_ALL_KIND = "source.fixAll.leaselint"


def _path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _utf16(line: str, column: int) -> int:
    """A code point column of `line` in UTF-16 code units (LSP's default position encoding)."""
    return len(line[:column].encode("utf-16-le")) // 2


class Checker:
    """The findings of the open documents, from leaselint's own entry points."""

    def __init__(self) -> None:
        self.results: dict[str, tuple[str, object]] = {}  # uri -> (text checked, FileResult)

    def settings(self, path: str, fix: bool = False, unsafe: bool = False):
        from leaselint.config import Layer, find_config, load_config, other_tools_layer, resolve

        folder = os.path.dirname(os.path.abspath(path))
        config = find_config(folder)
        layers = [load_config(config), Layer()] if config is not None else [other_tools_layer(folder), Layer()]
        root = os.path.dirname(config) if config is not None else os.path.dirname(os.path.abspath(path))
        return resolve(layers, root, fix, unsafe).for_file(path)

    def check(self, uri: str, text: str):
        from leaselint.runner import lint_paths, lint_text
        from leaselint.source import SourceText

        path = _path(uri)
        settings = self.settings(path)
        on_disk = None
        if os.path.isfile(path):
            try:
                with open(path, encoding="utf-8", newline="") as handle:
                    on_disk = handle.read()
            except (OSError, UnicodeDecodeError):
                on_disk = None
        if on_disk == text:
            # The saved file: with the project pass, as a changed-files run checks it.
            ((result, _),) = list(lint_paths([path], settings, explicit=[path], jobs=1))
        else:
            result = lint_text(SourceText(text), path, settings)
        self.results[uri] = (text, result)
        return result

    def current(self, uri: str, text: str):
        known = self.results.get(uri)
        if known is not None and known[0] == text:
            return known[1]
        return self.check(uri, text)

    def fixed_all_safe(self, uri: str, text: str) -> str | None:
        from leaselint.check import lint_text
        from leaselint.source import SourceText

        path = _path(uri)
        return lint_text(SourceText(text), path, self.settings(path, fix=True)).fixed_text


def lsp_range(lines: list[str], start, end):
    from lsprotocol import types as lsp

    def point(where):
        line = where.line - 1
        text = lines[line] if 0 <= line < len(lines) else ""
        return lsp.Position(line=max(line, 0), character=_utf16(text, where.column))

    return lsp.Range(start=point(start), end=point(end))


def _lines(text: str) -> list[str]:
    return text.splitlines() or [""]


def lsp_diagnostics(text: str, result) -> list:
    from lsprotocol import types as lsp

    lines = _lines(text)
    found = []
    for d in result.diagnostics:
        fixable = d.fix is not None
        found.append(
            lsp.Diagnostic(
                range=lsp_range(lines, d.start, d.end),
                message=d.message,
                severity=lsp.DiagnosticSeverity.Error if d.code == "LL000" else lsp.DiagnosticSeverity.Warning,
                code=d.code,
                source="leaselint",
                data={"fixable": fixable},
            )
        )
    return found


def _whole(text: str):
    from lsprotocol import types as lsp

    lines = text.split("\n")
    return lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=len(lines), character=0))


def code_actions(uri: str, text: str, result, wanted, fixed_all: str | None) -> list:
    """Quick fixes for the findings in `wanted` (an LSP range), a noqa for each, and fix-all-safe."""
    from lsprotocol import types as lsp

    from leaselint.diagnostics import Applicability
    from leaselint.suppress import add_noqa

    lines = _lines(text)
    actions = []
    for d in result.diagnostics:
        where = lsp_range(lines, d.start, d.end)
        if where.end.line < wanted.start.line or where.start.line > wanted.end.line:
            continue
        diagnostic = lsp.Diagnostic(range=where, message=d.message, code=d.code, source="leaselint")
        if d.fix is not None and d.fix.edits:
            safe = d.fix.applicability is Applicability.SAFE
            edits = [lsp.TextEdit(range=lsp_range(lines, e.start, e.end), new_text=e.content) for e in d.fix.edits]
            actions.append(
                lsp.CodeAction(
                    title=f"{d.code}: {d.fix.message}" + ("" if safe else " (unsafe)"),
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=safe,
                    edit=lsp.WorkspaceEdit(changes={uri: edits}),
                )
            )
        if d.code != "LL000":
            noqa_text, added, _ = add_noqa(text, [d])
            if added:
                actions.append(
                    lsp.CodeAction(
                        title=f"{d.code}: add `# noqa: {d.code}`",
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=_whole(text), new_text=noqa_text)]}),
                    )
                )
    if fixed_all is not None and fixed_all != text:
        actions.append(
            lsp.CodeAction(
                title="leaselint: fix all safe fixes",
                kind=FIX_ALL_KIND,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=_whole(text), new_text=fixed_all)]}),
            )
        )
    return actions


def hover_text(text: str, result, line: int, character: int) -> str | None:
    """The documentation of the rule whose finding covers the position (LSP coordinates)."""
    from leaselint.report.rule_docs import explain
    from leaselint.rules import RULES_BY_CODE

    lines = _lines(text)
    for d in result.diagnostics:
        where = lsp_range(lines, d.start, d.end)
        after_start = (line, character) >= (where.start.line, where.start.character)
        before_end = (line, character) <= (where.end.line, where.end.character)
        if after_start and before_end and d.code in RULES_BY_CODE:
            return explain(RULES_BY_CODE[d.code])
    return None


def make_server():
    from lsprotocol import types as lsp
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("leaselint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
    checker = Checker()
    versions: dict[str, int] = {}

    def log(message: str) -> None:
        server.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"leaselint: {message}"))

    def publish(uri: str) -> None:
        try:
            document = server.workspace.get_text_document(uri)
            text = document.source
            result = checker.check(uri, text)
            for error in getattr(result, "internal_errors", ()):
                log(f"internal error in {_path(uri)}: {error}")
            if getattr(result, "unchecked", None):
                log(f"{_path(uri)}: {result.unchecked}")
            diagnostics = lsp_diagnostics(text, result)
        except Exception as error:  # the server keeps serving
            log(f"cannot check {_path(uri)}: {type(error).__name__}: {error}")
            diagnostics = []
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: lsp.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        version = versions[uri] = versions.get(uri, 0) + 1
        await asyncio.sleep(DEBOUNCE_S)
        if versions.get(uri) == version:
            publish(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: lsp.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: lsp.DidCloseTextDocumentParams) -> None:
        checker.results.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls, params: lsp.DidChangeWatchedFilesParams) -> None:
        # A helper module changed on disk: the open files' project findings may change with it.
        for uri in list(checker.results):
            publish(uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    def code_action(ls, params: lsp.CodeActionParams):
        uri = params.text_document.uri
        try:
            text = server.workspace.get_text_document(uri).source
            result = checker.current(uri, text)
            return code_actions(uri, text, result, params.range, checker.fixed_all_safe(uri, text))
        except Exception as error:
            log(f"cannot make code actions for {_path(uri)}: {type(error).__name__}: {error}")
            return []

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: lsp.HoverParams):
        uri = params.text_document.uri
        try:
            text = server.workspace.get_text_document(uri).source
            found = hover_text(text, checker.current(uri, text), params.position.line, params.position.character)
        except Exception as error:
            log(f"cannot hover in {_path(uri)}: {type(error).__name__}: {error}")
            return None
        if found is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=found))

    return server


def serve() -> None:
    try:
        server = make_server()
    except ImportError as error:
        import sys

        sys.stderr.write(f"leaselint: error: the language server needs pygls: pip install 'leaselint[server]' ({error})\n")
        raise SystemExit(2) from None
    server.start_io()
