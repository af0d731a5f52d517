;;; emacs-check.el --- headless eglot client for test/lsp/emacs.test.ts  -*- lexical-binding: t -*-
;; LSP_CMD="crd-yaml lsp --stdio" emacs -Q --batch -l emacs-check.el FILE OUT
;; Configures eglot with the snippet of docs/editors.md (Emacs), the command being LSP_CMD (the installed
;; package's `crd-yaml lsp --stdio` in the e2e tier, else `node dist/server.js --stdio`), opens FILE, waits for the server's diagnostics to reach flymake and writes them to
;; OUT as JSON: [{"line": 1-based, "col": 0-based, "type": "error"|"warning"|"note", "text": ...}].
;; Exit 0 when diagnostics arrived, 1 on timeout.
(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa") ; Debian's elpa-* packages
(package-initialize)
(require 'yaml-mode)
(require 'json)
(let ((command (split-string (getenv "LSP_CMD"))))
  ;; The docs/editors.md snippet, the command as LSP_CMD gives it.
  (with-eval-after-load 'eglot
    (add-to-list 'eglot-server-programs
                 `(yaml-mode . ,command))))
(require 'eglot)
(let* ((file (expand-file-name (pop command-line-args-left)))
       (out (expand-file-name (pop command-line-args-left)))
       (timeout (string-to-number (or (getenv "LSP_TIMEOUT_S") "20")))
       (buf (find-file file))
       diags)
  (with-current-buffer buf
    (unless (derived-mode-p 'yaml-mode) (yaml-mode))
    ;; eglot-ensure waits for post-command-hook, which never runs in batch mode: connect directly.
    (call-interactively #'eglot)
    (let ((deadline (+ (float-time) timeout)))
      (while (and (null (setq diags (flymake-diagnostics)))
                  (< (float-time) deadline))
        (when (eglot-current-server) (flymake-start))
        (accept-process-output nil 0.1)))
    (with-temp-file out
      (insert (json-encode
               (vconcat
                (mapcar (lambda (d)
                          (let ((beg (flymake-diagnostic-beg d)))
                            (with-current-buffer buf
                              `((line . ,(line-number-at-pos beg))
                                (col . ,(save-excursion (goto-char beg) (current-column)))
                                (type . ,(pcase (flymake-diagnostic-type d)
                                           ((or 'eglot-error :error) "error")
                                           ((or 'eglot-warning :warning) "warning")
                                           (_ "note")))
                                (text . ,(flymake-diagnostic-text d))))))
                        diags)))))
    (ignore-errors (eglot-shutdown (eglot-current-server))))
  (kill-emacs (if diags 0 1)))
